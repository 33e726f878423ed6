# Lints CloudFormation templates for the test binaries with cfnlint.api.lint_file,
# the function behind the cfn-lint command, importing cfnlint (about 2 s) once:
# a template path per line in, a JSON list of the findings (each as str() of
# a match) per line out. Without an argument it serves its stdin and stdout,
# for one test binary; with a socket path it listens there, for every test
# binary of a run (scripts/with-ddblocal.sh starts it so), one template at a
# time.
import json
import socket
import sys
import threading
from pathlib import Path

from cfnlint.api import lint_file

lock = threading.Lock()


def serve(lines, out):
    for line in lines:
        with lock:
            findings = [str(m) for m in lint_file(Path(line.rstrip("\n")))]
        out.write(json.dumps(findings) + "\n")
        out.flush()


def serve_conn(conn):
    with conn, conn.makefile("r") as lines, conn.makefile("w") as out:
        serve(lines, out)


if len(sys.argv) > 1:
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(sys.argv[1])
    listener.listen()
    print("ready", flush=True)
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve_conn, args=(conn,), daemon=True).start()
else:
    print("ready", flush=True)
    serve(sys.stdin, sys.stdout)
