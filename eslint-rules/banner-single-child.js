/**
 * The shell's Banner lays its content out as a flex row (rancher-components/Banner: `.banner__content` is
 * `display: flex`), so two paragraphs given to it side by side become two columns, a list beside its heading.
 * A Banner's content is one element (a `<div>` around several); a v-if / v-else-if / v-else chain counts as one,
 * since only one of it is drawn. Text next to an element is flagged too: it would be a column of its own.
 *
 * Loaded by scripts/lint.sh with `--rulesdir eslint-rules`.
 */
'use strict';

function directive(el, name) {
  return el.startTag.attributes.some((a) => a.directive && a.key.name && a.key.name.name === name);
}

/** Elements drawn side by side: each v-if chain once. */
function columns(children) {
  let count = 0;
  let text = false;

  for (const child of children) {
    if (child.type === 'VText') {
      text = text || child.value.trim() !== '';
    } else if (child.type === 'VExpressionContainer') {
      text = true;
    } else if (child.type === 'VElement' && !directive(child, 'else-if') && !directive(child, 'else')) {
      count++;
    }
  }

  return count + (text && count ? 1 : 0);
}

module.exports = {
  meta: {
    type:     'problem',
    docs:     { description: 'the shell\'s Banner gets one element as its content, so that it does not lay it out in columns' },
    schema:   [],
    messages: { columns: 'Banner content is a flex row: wrap its {{count}} parts in one <div>, or they show as columns.' },
  },

  create(context) {
    const services = context.parserServices;

    if (!services || !services.defineTemplateBodyVisitor) {
      return {};
    }

    return services.defineTemplateBodyVisitor({
      VElement(node) {
        // `name` is the tag lower-cased: <Banner> and <banner> alike
        if (node.name !== 'banner') {
          return;
        }
        const count = columns(node.children);

        if (count > 1) {
          context.report({
            node: node.startTag, messageId: 'columns', data: { count }
          });
        }
      },
    });
  },
};
