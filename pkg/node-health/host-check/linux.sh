#!/bin/sh
# Node Health host check for Linux: the facts about this host that the Node Health diagnosis needs, as one
# JSON document ("format": "node-health-host/v1") on standard output, and nothing else there.
#
# Run it as root on the host of a custom RKE2/K3s node:  sudo sh node-health-host-check.sh [--offline]
# It only reads: it changes no file, restarts no service and sends no credential anywhere. It needs a POSIX
# sh, coreutils and sed; systemctl, journalctl, openssl and curl are used where present, and a missing one is
# reported in "missingTools" rather than stopping the check. --offline skips the one request it makes (a HEAD
# request to the Rancher server, for its Date header, to measure this host's clock offset).
#
# From files that hold credentials it reads only what it prints: the connection info's secretName, namespace
# and server URL (never its kubeconfig or token), and the node-name line of the RKE2/K3s config (never its
# token lines). Log lines it prints are cut to the known signatures, one sample each, with credentials
# replaced by [redacted].
#
# NODE_HEALTH_HOST_ROOT prefixes every file path; it exists for the tests, which run the check against fixture
# hosts. Leave it unset on a real host.

set -u
LC_ALL=C
export LC_ALL

ROOT=${NODE_HEALTH_HOST_ROOT:-}
OFFLINE=0
LOG_LINES=500

for arg in "$@"; do
  case $arg in
    --offline) OFFLINE=1 ;;
    *) echo "node-health host check: unknown argument $arg (only --offline)" >&2; exit 2 ;;
  esac
done

TMP_DIR=$(mktemp -d 2>/dev/null || echo "/tmp/node-health-host-check.$$")
mkdir -p "$TMP_DIR" 2>/dev/null
chmod 700 "$TMP_DIR" 2>/dev/null
trap 'rm -rf "$TMP_DIR"' EXIT INT TERM

MISSING_TOOLS=''
NOTES=''

have() {
  command -v "$1" >/dev/null 2>&1
}

for tool in systemctl journalctl openssl; do
  have "$tool" || MISSING_TOOLS="$MISSING_TOOLS $tool"
done
# The clock check asks with curl, else with openssl.
if [ $OFFLINE -eq 0 ] && ! have curl && ! have openssl; then
  MISSING_TOOLS="$MISSING_TOOLS curl"
fi

# One JSON string literal; control characters are dropped so that a value stays on one line.
json_str() {
  printf '"%s"' "$(printf '%s' "$1" | tr -d '\000-\037\177' | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"
}

# A JSON string, or null when empty.
json_opt() {
  if [ -n "$1" ]; then json_str "$1"; else printf 'null'; fi
}

# A JSON number, or null when not a plain integer.
json_int() {
  case $1 in
    ''|*[!0-9-]*) printf 'null' ;;
    *) printf '%s' "$1" ;;
  esac
}

json_list() {
  first=1
  printf '['
  for item in $1; do
    [ $first -eq 1 ] || printf ','
    json_str "$item"
    first=0
  done
  printf ']'
}

note() {
  NOTES="$NOTES
$1"
}

# RFC3339 in UTC from anything GNU date reads; empty when it cannot.
to_utc() {
  [ -n "$1" ] || return 0
  date -u -d "$1" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || true
}

# Credentials in a log line replaced by [redacted], following the export's rules (export/redact.ts): PEM
# blocks, JWTs, RKE2/K3s join tokens, user:password@ in URLs, bearer headers, token and password flags and
# key=value or key: value assignments. The words are spelled case-insensitively for seds without the I flag.
SECRET_WORDS='([Tt][Oo][Kk][Ee][Nn]|[Pp][Aa][Ss][Ss][Ww]([Oo][Rr])?[Dd]|[Pp][Aa][Ss][Ss][Pp][Hh][Rr][Aa][Ss][Ee]|[Pp][Ww][Dd]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Aa][Pp][Ii][_-]?[Kk][Ee][Yy]|[Aa][Cc][Cc][Ee][Ss][Ss][_-]?[Kk][Ee][Yy]|[Pp][Rr][Ii][Vv][Aa][Tt][Ee][_-]?[Kk][Ee][Yy]|[Kk][Uu][Bb][Ee][Cc][Oo][Nn][Ff][Ii][Gg])'
redact() {
  printf '%s' "$1" | sed -E \
    -e 's/-----BEGIN [A-Z0-9 ]+-----.*/[redacted]/' \
    -e 's/eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_.-]*/[redacted]/g' \
    -e "s/K10[0-9a-fA-F]{8,}::[^[:space:]:'\"]+:[^[:space:]'\",;]+/[redacted]/g" \
    -e "s#([a-zA-Z][a-zA-Z0-9+.-]*://)[^[:space:]/@:'\"]+:[^[:space:]/@'\"]+@#\\1[redacted]@#g" \
    -e 's/([Bb][Ee][Aa][Rr][Ee][Rr]|[Bb][Aa][Ss][Ii][Cc])([[:space:]]+)[A-Za-z0-9._~+\/-]{8,}=*/\1\2[redacted]/g' \
    -e "s/(^|[[:space:]\"'[,(])(--?[A-Za-z0-9-]*${SECRET_WORDS})([[:space:]]*=[[:space:]]*|[[:space:]]+)(\"[^\"]*\"|'[^']*'|[^[:space:]'\",]+)/\\1\\2\\5[redacted]/g" \
    -e "s/([A-Za-z0-9_.-]*${SECRET_WORDS}[A-Za-z0-9_.-]*)([\"']?[[:space:]]*[=:][[:space:]]*)(\"[^\"]*\"|'[^']*'|[^[:space:]'\",;&}]+)/\\1\\4[redacted]/g"
}

# ---------------------------------------------------------------------------------------------- identity

HOSTNAME_OS=$(cat "$ROOT/proc/sys/kernel/hostname" 2>/dev/null || uname -n)

# The name kubelet registers with: the last node-name of the RKE2 or K3s configuration, as RKE2 merges
# config.yaml and then config.yaml.d/*.yaml; only that line of each file is read.
NODE_NAME=''
NODE_NAME_SOURCE=''
for distro in rke2 k3s; do
  for file in "$ROOT/etc/rancher/$distro/config.yaml" "$ROOT/etc/rancher/$distro/config.yaml.d/"*.yaml; do
    [ -r "$file" ] || continue
    while IFS= read -r line || [ -n "$line" ]; do
      case $line in
        node-name:*|\"node-name\":*)
          value=${line#*:}
          value=$(printf '%s' "$value" | sed -E -e 's/[[:space:]]+#.*$//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e "s/^[\"'](.*)[\"']\$/\\1/")
          if [ -n "$value" ]; then
            NODE_NAME=$value
            NODE_NAME_SOURCE=${file#"$ROOT"}
          fi
          ;;
      esac
    done < "$file"
  done
done

# The agent's id, which Rancher keeps as the Machine's rke.cattle.io/machine-id label (the install script sends
# it with every request for the machine's plan; it is not a credential on its own).
MACHINE_ID=''
CATTLE_ID_FILE="$ROOT/etc/rancher/agent/cattle-id"
if [ -r "$CATTLE_ID_FILE" ]; then
  MACHINE_ID=$(tr -d '[:space:]' < "$CATTLE_ID_FILE" | cut -c1-128)
fi

IS_ROOT=false
[ "$(id -u 2>/dev/null)" = 0 ] && IS_ROOT=true
[ "$IS_ROOT" = true ] || note 'not run as root: files only root may read are reported as absent'

# ---------------------------------------------------------------------------------------------- services

# Prints one service as a JSON object: {"name","loaded","state","subState","restarts","since"}.
service_json() {
  unit=$1
  if ! have systemctl; then
    printf '{"name":%s,"loaded":null,"state":null,"subState":null,"restarts":null,"since":null}' "$(json_str "$unit")"
    return
  fi
  props=$(systemctl show "$unit.service" --timestamp=utc -p LoadState -p ActiveState -p SubState -p NRestarts -p StateChangeTimestamp 2>/dev/null ||
    systemctl show "$unit.service" -p LoadState -p ActiveState -p SubState -p NRestarts -p StateChangeTimestamp 2>/dev/null)
  load_state=''; active=''; sub=''; restarts=''; changed=''
  while IFS='=' read -r key value; do
    case $key in
      LoadState) load_state=$value ;;
      ActiveState) active=$value ;;
      SubState) sub=$value ;;
      NRestarts) restarts=$value ;;
      StateChangeTimestamp) changed=$value ;;
    esac
  done <<EOF
$props
EOF
  loaded=null
  case $load_state in
    loaded) loaded=true ;;
    not-found|masked|error) loaded=false ;;
  esac
  since=$(to_utc "$changed")
  printf '{"name":%s,"loaded":%s,"state":%s,"subState":%s,"restarts":%s,"since":%s}' \
    "$(json_str "$unit")" "$loaded" "$(json_opt "$active")" "$(json_opt "$sub")" "$(json_int "$restarts")" "$(json_opt "$since")"
}

DISTRO=''
DISTRO_UNITS=''
if have systemctl; then
  for unit in rke2-server rke2-agent k3s k3s-agent; do
    state=$(systemctl show "$unit.service" -p LoadState 2>/dev/null)
    if [ "$state" = 'LoadState=loaded' ]; then
      DISTRO_UNITS="$DISTRO_UNITS $unit"
      [ -n "$DISTRO" ] || DISTRO=${unit%%-*}
    fi
  done
fi
if [ -z "$DISTRO" ]; then
  for distro in rke2 k3s; do
    if [ -d "$ROOT/var/lib/rancher/$distro" ]; then DISTRO=$distro; break; fi
  done
fi

# ---------------------------------------------------------------------------------------------- connection info

CI_FILE=/var/lib/rancher/agent/rancher2_connection_info.json
CI_PRESENT=false
CI_SIZE=''
CI_PARSES=null
CI_SECRET=''
CI_NAMESPACE=''
CI_SERVER=''

# The string value of a top-level "key" in the one-line JSON text $2 (connection info is written by Rancher's
# install script as compact JSON); empty when absent.
json_field() {
  case $2 in
    *"\"$1\""*) ;;
    *) return 0 ;;
  esac
  rest=${2#*\""$1"\"}
  rest=${rest#"${rest%%[!:[:space:]]*}"}
  case $rest in
    \"*) rest=${rest#\"}; printf '%s' "${rest%%\"*}" ;;
  esac
}

if [ -e "$ROOT$CI_FILE" ]; then
  CI_PRESENT=true
  CI_SIZE=$(wc -c < "$ROOT$CI_FILE" 2>/dev/null | tr -d '[:space:]')
  if [ "$CI_SIZE" = 0 ]; then
    CI_PARSES=false
  elif [ -r "$ROOT$CI_FILE" ]; then
    text=$(tr -d '\n\r' < "$ROOT$CI_FILE")
    CI_SECRET=$(json_field secretName "$text")
    CI_NAMESPACE=$(json_field namespace "$text")
    trimmed=$(printf '%s' "$text" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')
    case $trimmed in
      \{*\}) if [ -n "$CI_SECRET" ] && [ -n "$CI_NAMESPACE" ] && case $trimmed in *'"kubeConfig"'*) true ;; *) false ;; esac; then CI_PARSES=true; else CI_PARSES=false; fi ;;
      *) CI_PARSES=false ;;
    esac
    # The server line of the kubeconfig, reduced to scheme://host[:port]: nothing else of it is read.
    case $text in
      *'server: '*)
        server=${text#*server: }
        server=${server%%[\\\"[:space:]]*}
        CI_SERVER=$(printf '%s' "$server" | sed -n -E 's#^(https?://)([^/@]*@)?([][A-Za-z0-9.:-]+).*#\1\3#p')
        ;;
    esac
  fi
fi

# ---------------------------------------------------------------------------------------------- logs

# Signatures: id|where|text that must appear|text that must also appear (optional). Stable substrings of
# the messages in docs' failure families; the last two of the agent's are the two wordings of one problem.
SIGNATURES='agent-credentials|agent|the server has asked for the client to provide credentials|
connection-info-eof|agent|unable to parse connection info file: EOF|
ca-untrusted-fatal|agent|x509: certificate signed by unknown authority|level=fatal
ca-strict-no-root|agent|Strict CA verification is enabled but encountered error finding root CA|
secret-too-old|agent|secret received was too old|
secret-older-than-last|agent|older than the last secret operated on|
node-password-rejected|distro|Node password rejected|
server-not-ready|distro|Waiting to retrieve agent configuration; server is not ready|
plan-instruction-failed|agent|error executing instruction|'

# The time of a journal line: logrus' time="..." when there is one, else journalctl's short-iso prefix.
line_time() {
  case $1 in
    *'time="'*)
      t=${1#*time=\"}
      to_utc "${t%%\"*}"
      ;;
    *)
      t=${1%% *}
      case $t in
        [0-9][0-9][0-9][0-9]-*) to_utc "$(printf '%s' "$t" | sed -E 's/([+-][0-9]{2})([0-9]{2})$/\1:\2/')" ;;
      esac
      ;;
  esac
}

# Reads the last lines of the given units into $TMP_DIR/<where>.log; prints true when the journal was read.
read_journal() {
  where=$1
  shift
  have journalctl || { printf 'false'; return; }
  args=''
  for unit in "$@"; do args="$args -u $unit"; done
  # shellcheck disable=SC2086 # the unit arguments are words on purpose
  if journalctl $args -n "$LOG_LINES" --no-pager -o short-iso > "$TMP_DIR/$where.raw" 2>/dev/null; then
    # journalctl's own remarks ("-- No entries --", "-- Boot ... --") are not log lines.
    sed '/^-- /d' "$TMP_DIR/$where.raw" > "$TMP_DIR/$where.log"
    printf 'true'
  else
    printf 'false'
  fi
}

AGENT_LOG_READ=$(read_journal agent rancher-system-agent)
DISTRO_LOG_READ=false
if [ -n "$DISTRO_UNITS" ]; then
  # shellcheck disable=SC2086
  DISTRO_LOG_READ=$(read_journal distro $DISTRO_UNITS)
fi

count_lines() {
  if [ -r "$1" ]; then wc -l < "$1" | tr -d '[:space:]'; else printf '0'; fi
}

signatures_json() {
  first_sig=1
  printf '['
  while IFS='|' read -r id where needle also; do
    [ -n "$id" ] || continue
    log="$TMP_DIR/$where.log"
    [ -r "$log" ] || continue
    count=0; first_line=''; sample=''
    while IFS= read -r line || [ -n "$line" ]; do
      case $line in
        *"$needle"*) ;;
        *) continue ;;
      esac
      if [ -n "$also" ]; then
        case $line in *"$also"*) ;; *) continue ;; esac
      fi
      count=$((count + 1))
      [ -n "$first_line" ] || first_line=$line
      sample=$line
    done < "$log"
    [ "$count" -gt 0 ] || continue
    first=$(line_time "$first_line")
    last=$(line_time "$sample")
    [ $first_sig -eq 1 ] || printf ','
    first_sig=0
    printf '{"id":%s,"source":%s,"count":%s,"first":%s,"last":%s,"sample":%s}' \
      "$(json_str "$id")" "$(json_str "$where")" "$count" "$(json_opt "$first")" "$(json_opt "$last")" "$(json_str "$(redact "$sample" | cut -c1-400)")"
  done <<EOF
$SIGNATURES
EOF
  printf ']'
}

# ---------------------------------------------------------------------------------------------- certificates

certificates_json() {
  first_cert=1
  printf '['
  for distro in rke2 k3s; do
    base="/var/lib/rancher/$distro"
    [ -d "$ROOT$base" ] || continue
    for entry in "kube-controller-manager|$base/server/tls/kube-controller-manager/kube-controller-manager.crt" \
                 "kube-scheduler|$base/server/tls/kube-scheduler/kube-scheduler.crt" \
                 "kubelet|$base/agent/serving-kubelet.crt"; do
      name=${entry%%|*}
      path=${entry#*|}
      [ -e "$ROOT$path" ] || continue
      not_after=''
      if have openssl; then
        raw=$(openssl x509 -noout -enddate -in "$ROOT$path" 2>/dev/null)
        not_after=$(to_utc "${raw#notAfter=}")
      fi
      [ $first_cert -eq 1 ] || printf ','
      first_cert=0
      printf '{"name":%s,"path":%s,"notAfter":%s}' "$(json_str "$name")" "$(json_str "$path")" "$(json_opt "$not_after")"
    done
  done
  printf ']'
}

# ---------------------------------------------------------------------------------------------- clock, disk

clock_json() {
  if [ $OFFLINE -eq 1 ]; then
    printf '{"checked":false,"reason":"offline","server":%s}' "$(json_opt "$CI_SERVER")"
    return
  fi
  if [ -z "$CI_SERVER" ]; then
    printf '{"checked":false,"reason":"no-server-url","server":null}'
    return
  fi
  headers=''
  if have curl; then
    headers=$(curl -sSI -k --max-time 10 "$CI_SERVER/ping" 2>/dev/null)
  elif have openssl; then
    hostport=${CI_SERVER#*://}
    case $hostport in *:*) ;; *) hostport="$hostport:443" ;; esac
    headers=$(printf 'HEAD /ping HTTP/1.0\r\nHost: %s\r\n\r\n' "${hostport%:*}" | openssl s_client -quiet -connect "$hostport" -servername "${hostport%:*}" 2>/dev/null | head -n 30)
  else
    printf '{"checked":false,"reason":"no-http-client","server":%s}' "$(json_str "$CI_SERVER")"
    return
  fi
  local_epoch=$(date -u +%s)
  server_date=$(printf '%s\n' "$headers" | tr -d '\r' | sed -n 's/^[Dd][Aa][Tt][Ee]:[[:space:]]*//p' | head -n 1)
  server_epoch=$(date -u -d "$server_date" +%s 2>/dev/null || true)
  if [ -z "$server_epoch" ]; then
    printf '{"checked":false,"reason":"no-date-header","server":%s}' "$(json_str "$CI_SERVER")"
    return
  fi
  printf '{"checked":true,"server":%s,"serverDate":%s,"offsetSeconds":%s}' \
    "$(json_str "$CI_SERVER")" "$(json_str "$(to_utc "$server_date")")" "$((local_epoch - server_epoch))"
}

disk_json() {
  dir="$ROOT/var/lib/rancher"
  if [ ! -d "$dir" ]; then
    printf '{"path":"/var/lib/rancher","present":false,"freeBytes":null,"totalBytes":null}'
    return
  fi
  line=$(df -Pk "$dir" 2>/dev/null | tail -n 1)
  # shellcheck disable=SC2086 # df's columns are words
  set -- $line
  free=''
  total=''
  case ${4:-x}${2:-x} in
    *[!0-9]*) ;;
    *) free=$(($4 * 1024)); total=$(($2 * 1024)) ;;
  esac
  printf '{"path":"/var/lib/rancher","present":true,"freeBytes":%s,"totalBytes":%s}' "$(json_int "$free")" "$(json_int "$total")"
}

# ---------------------------------------------------------------------------------------------- the document

AGENT_JSON=$(service_json rancher-system-agent)
DISTRO_JSON='[]'
if [ -n "$DISTRO_UNITS" ]; then
  DISTRO_JSON='['
  sep=''
  for unit in $DISTRO_UNITS; do
    DISTRO_JSON="$DISTRO_JSON$sep$(service_json "$unit")"
    sep=','
  done
  DISTRO_JSON="$DISTRO_JSON]"
fi
SIGNATURES_JSON=$(signatures_json)
CERTIFICATES_JSON=$(certificates_json)
CLOCK_JSON=$(clock_json)
DISK_JSON=$(disk_json)

NOTES_JSON='['
sep=''
while IFS= read -r line; do
  [ -n "$line" ] || continue
  NOTES_JSON="$NOTES_JSON$sep$(json_str "$line")"
  sep=','
done <<EOF
$NOTES
EOF
NOTES_JSON="$NOTES_JSON]"

printf '{\n'
printf '  "format": "node-health-host/v1",\n'
printf '  "os": "linux",\n'
printf '  "collectedAt": %s,\n' "$(json_str "$(date -u +%Y-%m-%dT%H:%M:%SZ)")"
printf '  "root": %s,\n' "$IS_ROOT"
printf '  "hostname": %s,\n' "$(json_opt "$HOSTNAME_OS")"
printf '  "nodeName": {"value": %s, "source": %s},\n' "$(json_opt "$NODE_NAME")" "$(json_opt "$NODE_NAME_SOURCE")"
printf '  "machineId": %s,\n' "$(json_opt "$MACHINE_ID")"
printf '  "distro": %s,\n' "$(json_opt "$DISTRO")"
printf '  "agent": %s,\n' "$AGENT_JSON"
printf '  "distroServices": %s,\n' "$DISTRO_JSON"
printf '  "connectionInfo": {"path": %s, "present": %s, "size": %s, "parses": %s, "secretName": %s, "namespace": %s, "server": %s},\n' \
  "$(json_str "$CI_FILE")" "$CI_PRESENT" "$(json_int "$CI_SIZE")" "$CI_PARSES" "$(json_opt "$CI_SECRET")" "$(json_opt "$CI_NAMESPACE")" "$(json_opt "$CI_SERVER")"
printf '  "logs": {"agent": {"read": %s, "lines": %s}, "distro": {"read": %s, "lines": %s}},\n' \
  "$AGENT_LOG_READ" "$(count_lines "$TMP_DIR/agent.log")" "$DISTRO_LOG_READ" "$(count_lines "$TMP_DIR/distro.log")"
printf '  "signatures": %s,\n' "$SIGNATURES_JSON"
printf '  "certificates": %s,\n' "$CERTIFICATES_JSON"
printf '  "clock": %s,\n' "$CLOCK_JSON"
printf '  "disk": %s,\n' "$DISK_JSON"
printf '  "missingTools": %s,\n' "$(json_list "$MISSING_TOOLS")"
printf '  "notes": %s\n' "$NOTES_JSON"
printf '}\n'
