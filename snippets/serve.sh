python -m pip install -r requirements.txt && mkdocs serve
