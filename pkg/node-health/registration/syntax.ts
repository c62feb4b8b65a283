/**
 * Kubernetes and network name syntax, each check saying which rule failed so the message can name it.
 */

export const DNS_LABEL_MAX = 63;
export const DNS_SUBDOMAIN_MAX = 253;
export const LABEL_VALUE_MAX = 63;

const LOWER_ALNUM = /^[a-z0-9]$/;
const QUALIFIED_NAME = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/;

export type SubdomainFailure =
  | { rule: 'empty' }
  | { rule: 'tooLong'; length: number }
  | { rule: 'character'; char: string }
  | { rule: 'emptyPart' }
  | { rule: 'partEdge'; part: string }
  | { rule: 'partTooLong'; part: string; length: number };

/**
 * RFC 1123 subdomain as Kubernetes checks object names: lower case letters, digits, '-' and '.',
 * at most 253 characters, dot-separated parts of at most 63 that start and end with a letter or digit.
 * Upper case letters are reported as a bad character; callers that lower-case first never see them.
 */
export function checkSubdomain(name: string): SubdomainFailure | null {
  if (name === '') {
    return { rule: 'empty' };
  }
  for (const char of name) {
    if (!LOWER_ALNUM.test(char) && char !== '-' && char !== '.') {
      return { rule: 'character', char };
    }
  }
  if (name.length > DNS_SUBDOMAIN_MAX) {
    return { rule: 'tooLong', length: name.length };
  }
  for (const part of name.split('.')) {
    if (part === '') {
      return { rule: 'emptyPart' };
    }
    if (!LOWER_ALNUM.test(part[0]) || !LOWER_ALNUM.test(part[part.length - 1])) {
      return { rule: 'partEdge', part };
    }
    if (part.length > DNS_LABEL_MAX) {
      return {
        rule: 'partTooLong', part, length: part.length
      };
    }
  }

  return null;
}

/** A lower-case RFC 1123 name derived from a host name, or null when nothing sensible remains. */
export function suggestSubdomain(name: string): string | null {
  const suggestion = name
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .split('.')
    .map((part) => part.replace(/^-+|-+$/g, '').slice(0, DNS_LABEL_MAX).replace(/-+$/g, ''))
    .filter((part) => part !== '')
    .join('.')
    .slice(0, DNS_SUBDOMAIN_MAX)
    .replace(/[-.]+$/g, '');

  return suggestion && !checkSubdomain(suggestion) ? suggestion : null;
}

export type QualifiedNameFailure =
  | { rule: 'empty' }
  | { rule: 'prefix'; prefix: string }
  | { rule: 'nameTooLong'; name: string; length: number }
  | { rule: 'name'; name: string };

/** A label or taint key: optional DNS subdomain prefix and '/', then a name of at most 63 characters. */
export function checkQualifiedName(key: string): QualifiedNameFailure | null {
  if (key === '') {
    return { rule: 'empty' };
  }
  const slash = key.indexOf('/');
  let name = key;

  if (slash >= 0) {
    const prefix = key.slice(0, slash);

    name = key.slice(slash + 1);
    if (checkSubdomain(prefix)) {
      return { rule: 'prefix', prefix };
    }
  }
  if (name.length > DNS_LABEL_MAX) {
    return {
      rule: 'nameTooLong', name, length: name.length
    };
  }
  if (!QUALIFIED_NAME.test(name)) {
    return { rule: 'name', name };
  }

  return null;
}

export type LabelValueFailure = { rule: 'tooLong'; length: number } | { rule: 'syntax' };

/** A label (or taint) value: empty, or at most 63 alphanumerics, '-', '_', '.', starting and ending alphanumeric. */
export function checkLabelValue(value: string): LabelValueFailure | null {
  if (value.length > LABEL_VALUE_MAX) {
    return { rule: 'tooLong', length: value.length };
  }
  if (value !== '' && !QUALIFIED_NAME.test(value)) {
    return { rule: 'syntax' };
  }

  return null;
}
