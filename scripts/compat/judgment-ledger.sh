#!/usr/bin/env bash
# Stands where the earlier harness's scripts/judgment-ledger.sh stood: same verbs, flags and exit codes.
exec decisions judgment "$@"
