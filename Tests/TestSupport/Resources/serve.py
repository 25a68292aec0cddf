"""A real HTTP server on 127.0.0.1 for airlab's tests.

Serves one folder, and a few paths that misbehave on purpose:
  /_status/NNN   answers with status NNN and a one-line body
  /_hang         accepts the request and never answers (the test's client must time out)
Prints "PORT <n>" on its first line of output once it listens, then serves until killed.
"""
import http.server
import os
import sys
import threading


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/_status/"):
            code = int(self.path.split("/")[2])
            body = f"status {code}\n".encode()
            self.send_response(code)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if self.path.startswith("/_hang"):
            threading.Event().wait(3600)
            return
        super().do_GET()


def main():
    root = sys.argv[1]
    os.chdir(root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
