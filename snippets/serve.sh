bash scripts/serve.sh
