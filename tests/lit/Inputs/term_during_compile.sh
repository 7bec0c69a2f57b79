#!/bin/bash
# SIGTERM to permjit while its host compiler runs; prints what is left behind.
# Usage: term_during_compile.sh PERMJIT SPEC CACHE OUT
permjit=$1 spec=$2 cache=$3 out=$4
rm -rf "$cache"
echo keep > "$out"
"$permjit" solve "$spec" -p n=6 --no-symmetry --backend cpu --cache-dir "$cache" --list --out "$out" --quiet &
pid=$!
# Wait until the compiler is at work on a temporary file of the cache.
for _ in $(seq 400); do
  pgrep -f "$cache/tmp-" > /dev/null && break
  sleep 0.025
done
pgrep -f "$cache/tmp-" > /dev/null && echo "compiler started"
kill -TERM "$pid"
wait "$pid"
echo "exit status $?"
sleep 0.3
echo "compiler processes left: $(pgrep -f "$cache/tmp-" | wc -l)"
echo "temporary files left: $(ls "$cache" | grep -c '^tmp-')"
echo "out: $(cat "$out")"
