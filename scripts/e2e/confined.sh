#!/usr/bin/env bash
# Runs a command inside a fresh network namespace that has only loopback, with the fake model
# server and the fake decision provider started inside it. Needs root (unshare -n).
#
#   confined.sh API PROVIDER LOGDIR -- COMMAND...
#
# API       anthropic | responses | gemini | none: the fake model on 127.0.0.1:$E2E_MODEL_PORT
# PROVIDER  ok | hang | down: the fake System One on 127.0.0.1:$E2E_PROVIDER_PORT (down: nothing
#           listens there)
# LOGDIR    where the servers' request logs go (model.jsonl, provider.jsonl)
# The model's command comes from FAKE_COMMAND. Nothing listens on $E2E_PROXY_PORT: the
# proxy variables point there, so anything that tries to leave the machine is refused.
set -euo pipefail
if [[ "${1:-}" != "--inside" ]]; then
  exec unshare -n -- "$0" --inside "$@"
fi
shift
api=$1 provider=$2 logdir=$3
shift 3
[[ "${1:-}" == "--" ]] && shift
here=$(cd "$(dirname "$0")" && pwd)
: "${E2E_MODEL_PORT:=18080}" "${E2E_PROVIDER_PORT:=18081}"
# bring loopback up: ip(8) when there is one, else the same ioctl from Python
if command -v ip >/dev/null 2>&1; then
  ip link set lo up
else
  python3 - <<'PY'
import fcntl, socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
flags = struct.unpack("16sH14x", fcntl.ioctl(s, 0x8913, struct.pack("16sH14x", b"lo", 0)))[1]  # SIOCGIFFLAGS
fcntl.ioctl(s, 0x8914, struct.pack("16sH14x", b"lo", flags | 1))  # SIOCSIFFLAGS, IFF_UP
PY
fi
mkdir -p "$logdir"
pids=()
cleanup() { local p; for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
wait_port() {
  local i
  for i in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  echo "confined.sh: nothing came up on port $1" >&2
  return 1
}
if [[ "$api" != none ]]; then
  python3 "$here/fake_models.py" --api "$api" --port "$E2E_MODEL_PORT" --log "$logdir/model.jsonl" \
    2>>"$logdir/servers.log" &
  pids+=($!)
  wait_port "$E2E_MODEL_PORT"
fi
if [[ "$provider" != down ]]; then
  python3 "$here/fake_systemone.py" --mode "$provider" --port "$E2E_PROVIDER_PORT" \
    --log "$logdir/provider.jsonl" 2>>"$logdir/servers.log" &
  pids+=($!)
  wait_port "$E2E_PROVIDER_PORT"
fi
rc=0
"$@" || rc=$?
exit "$rc"
