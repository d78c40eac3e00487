#!/usr/bin/env bash
# Runs one stackrank benchmark as N shards at once -- on this machine or over ssh with GNU parallel -- and merges
# them into the output the unsharded run prints (docs/distributed.md).
#
#   deploy/parallel/run.sh N OUTDIR STACKRANK-ARGS...
#   deploy/parallel/run.sh 4 runs/survival bench survival --lookahead 2 --games 400 --seed 1
#   SSH_HOSTS=node1,node2 deploy/parallel/run.sh 16 runs/survival bench survival --lookahead 3 --games 1600
#
# Shard I writes OUTDIR/shard-I.json and keeps a checkpoint in OUTDIR/shard-I.ckpt.json: run the same line again
# after a crash and every shard resumes where its checkpoint stopped. The merged output goes to stdout, the merged
# result file to OUTDIR/merged.json.
#
# Environment:
#   STACKRANK  how to run stackrank (default: npx stackrank); on every host when SSH_HOSTS is set
#   SSH_HOSTS  GNU parallel --sshlogin list (user@host,...); each host needs stackrank; shard files come back with
#              --return. Without it the shards run here, with GNU parallel if installed, else as background jobs.
#   REMOTE_DIR with SSH_HOSTS: the directory the shards run in on each host (keeps checkpoints for a rerun)
#   JOBS       shards running at once per host (default: all N locally, GNU parallel's default over ssh)
set -euo pipefail

if [ "$#" -lt 3 ]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
N=$1
OUT=$2
shift 2
case "$N" in '' | *[!0-9]* | 0) echo "run.sh: N must be a positive integer; got '$N'" >&2 && exit 2 ;; esac
STACKRANK=${STACKRANK:-npx stackrank}
mkdir -p "$OUT"
cd "$OUT"

# One shard: stackrank ARGS --shard I/N --out shard-I.json --checkpoint shard-I.ckpt.json (paths relative to OUT).
args=$(printf ' %q' "$@")
# A shard's own table (its games only) goes to shard-I.log; the merged one is what this script prints.
shard_cmd="$STACKRANK$args --shard {}/$N --out shard-{}.json --checkpoint shard-{}.ckpt.json > shard-{}.log"

if [ -n "${SSH_HOSTS:-}" ]; then
  command -v parallel >/dev/null || { echo "run.sh: SSH_HOSTS needs GNU parallel" >&2; exit 2; }
  # --return brings each shard file back here. REMOTE_DIR (a directory on the hosts, e.g. on a shared file system)
  # keeps the checkpoints where a rerun finds them; without it each job runs in a fresh remote directory (...).
  cleanup=--cleanup
  [ -z "${REMOTE_DIR:-}" ] || cleanup=
  seq 0 $((N - 1)) | parallel ${JOBS:+-j "$JOBS"} -S "$SSH_HOSTS" --workdir "${REMOTE_DIR:-...}" \
    --return 'shard-{}.json' $cleanup "$shard_cmd"
elif command -v parallel >/dev/null; then
  seq 0 $((N - 1)) | parallel -j "${JOBS:-$N}" "$shard_cmd"
else
  pids=()
  for ((i = 0; i < N; i++)); do
    eval "${shard_cmd//\{\}/$i}" &
    pids+=("$!")
  done
  status=0
  for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
  [ "$status" -eq 0 ] || { echo "run.sh: a shard failed (exit $status); run the same line again to resume" >&2; exit "$status"; }
fi

files=()
for ((i = 0; i < N; i++)); do files+=("shard-$i.json"); done
json=
for a in "$@"; do [ "$a" = --json ] && json=--json; done
eval "$STACKRANK merge $(printf ' %q' "${files[@]}") --out merged.json $json"
