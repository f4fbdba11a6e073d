bash scripts/setup.sh          # 只准备环境：预览要用的一切
bash scripts/setup.sh --test   # 再加上测试要用的
