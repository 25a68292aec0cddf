"""A real HTTP server on 127.0.0.1 for airlab's tests.

Serves one folder, and a few paths that misbehave on purpose:
  /_status/NNN   answers with status NNN and a one-line body
  /_hang         accepts the request and never answers (the test's client must time out)
  /_sequence/F   answers the Nth request for it with the file F.N (or the last F.N there is): a live
                 playlist that moves on at every reload
  /_redirect/N/PATH   redirects N times (302) before landing on /PATH
  /_redirect-to?URL   redirects (302) to URL, whatever its scheme
  /_stream/N     answers N bytes without Content-Length, so only the client's own count can cap it
  /_endless      answers bytes without Content-Length and without end, until the client closes the
                 connection: a body no cap but the client's own can stop
Prints "PORT <n>" on its first line of output once it listens, then serves until killed.
"""
import http.server
import os
import sys
import threading


SEQUENCES = {}
SEQUENCE_LOCK = threading.Lock()


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass

    def redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        if self.path.startswith("/_status/"):
            code = int(self.path.split("/")[2])
            body = f"status {code}\n".encode()
            self.send_response(code)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if self.path.startswith("/_redirect/"):
            _, _, count, rest = self.path.split("/", 3)
            hops = int(count)
            self.redirect(f"/_redirect/{hops - 1}/{rest}" if hops > 0 else f"/{rest}")
            return
        if self.path.startswith("/_redirect-to?"):
            self.redirect(self.path.split("?", 1)[1])
            return
        if self.path.startswith("/_stream/"):
            remaining = int(self.path.split("/")[2])
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.end_headers()
            chunk = b"#" * 65536
            try:
                while remaining > 0:
                    self.wfile.write(chunk[:remaining])
                    remaining -= len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        if self.path.startswith("/_endless"):
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.end_headers()
            # Comment lines: whatever prefix a client keeps reads as the start of a playlist.
            chunk = b"#" * 65535 + b"\n"
            try:
                while True:
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        if self.path.startswith("/_sequence/"):
            name = self.path[len("/_sequence/"):].split("?")[0]
            with SEQUENCE_LOCK:
                SEQUENCES[name] = SEQUENCES.get(name, 0) + 1
                number = SEQUENCES[name]
            while number > 1 and not os.path.exists(f"{name}.{number}"):
                number -= 1
            try:
                body = open(f"{name}.{number}", "rb").read()
            except OSError:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if self.path.startswith("/_hang"):
            threading.Event().wait(3600)
            return
        super().do_GET()


def exit_with_parent():
    """Ends the server when the test process that started it is gone, even if it crashed: an orphan
    holding the runner's pipes open would keep `swift test` waiting forever."""
    parent = os.getppid()
    while os.getppid() == parent:
        threading.Event().wait(0.5)
    os._exit(0)


def main():
    threading.Thread(target=exit_with_parent, daemon=True).start()
    root = sys.argv[1]
    os.chdir(root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
