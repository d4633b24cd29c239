#!/usr/bin/env bash
# Stands where the earlier harness's scripts/judgment-card.sh stood: validate, recall, record-answer.
exec decisions card "$@"
