bash scripts/test.sh
