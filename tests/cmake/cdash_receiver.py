#!/usr/bin/env python3
"""A stand-in CDash for tests: answers CTest's submit protocol on 127.0.0.1.

ctest_submit() sends each part (Configure.xml, Build.xml, Test.xml, Done.xml)
as an HTTP PUT to the submit URL with `FileName`, `build`, `site`, `stamp` and
`MD5` in the query. Like CDash, the receiver checks the body's MD5, keeps the
file, and answers with CDash's XML (<cdash><status>OK</status>...). CTest
scans the whole reply for "ERROR" and "WARNING", so a good reply holds neither.
Given a token, it is a project that accepts only authenticated submissions:
a part without `Authorization: Bearer <token>` gets HTTP 401 and is not kept.

Run alone:  cdash_receiver.py --out DIR [--port N] [--port-file F] [--token-env VAR]
Each accepted part is saved as DIR/<n>-<FileName>, with DIR/<n>-<FileName>.query.json;
each refused one is counted in `refused`.
"""
import argparse
import hashlib
import http.server
import hmac
import json
import os
import pathlib
import threading
import urllib.parse
from typing import Optional


def _reply(status: str, message: str, md5: str) -> bytes:
    return (f'<cdash version="3.0">\n  <status>{status}</status>\n  <message>{message}</message>\n'
            f'  <md5>{md5}</md5>\n  <buildId>1</buildId>\n</cdash>\n').encode()


class Receiver(http.server.ThreadingHTTPServer):
    def __init__(self, out: pathlib.Path, port: int = 0, token: Optional[str] = None):
        super().__init__(("127.0.0.1", port), _Handler)
        self.out = out
        self.token = token
        self.count = 0
        self.refused = 0
        self.lock = threading.Lock()
        out.mkdir(parents=True, exist_ok=True)


class _Handler(http.server.BaseHTTPRequestHandler):
    server: Receiver
    protocol_version = "HTTP/1.1"  # answers curl's "Expect: 100-continue" at once

    def do_PUT(self) -> None:
        url = urllib.parse.urlsplit(self.path)
        query = {key: values[-1] for key, values in urllib.parse.parse_qs(url.query).items()}
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if self.server.token is not None:
            given = self.headers.get("Authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {self.server.token}".encode()):
                with self.server.lock:
                    self.server.refused += 1
                self._send(_reply("ERROR", "Invalid or missing bearer token", ""), status=401)
                return
        digest = hashlib.md5(body).hexdigest()
        name = pathlib.PurePosixPath(query.get("FileName", "")).name
        if not name or query.get("MD5", "").lower() != digest:
            self._send(_reply("FAILED", f"md5 mismatch or no FileName for {name!r}", digest))
            return
        with self.server.lock:
            self.server.count += 1
            stem = self.server.out / f"{self.server.count:02d}-{name}"
        stem.write_bytes(body)
        pathlib.Path(f"{stem}.query.json").write_text(json.dumps(query, indent=1))
        self._send(_reply("OK", "Submission accepted", digest))

    def _send(self, payload: bytes, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/xml")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args) -> None:  # quiet: the test prints what matters
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=pathlib.Path)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", type=pathlib.Path)
    parser.add_argument("--token-env", metavar="VAR",
                        help="accept only parts that carry the bearer token in this environment variable")
    args = parser.parse_args()
    server = Receiver(args.out, args.port, os.environ[args.token_env] if args.token_env else None)
    if args.port_file:
        args.port_file.write_text(str(server.server_address[1]))
    print(f"cdash_receiver: http://127.0.0.1:{server.server_address[1]}/submit.php", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
