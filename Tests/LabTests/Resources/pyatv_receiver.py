"""An AirPlay 2 receiver's front made of pyatv 0.18's own server pieces, for airlab's sender tests.

    python pyatv_receiver.py PIN

pyatv's AirPlayServerAuth answers /pair-pin-start, /pair-setup (HKP 3 with PIN, HKP 4 transient)
and /pair-verify; pyatv's BasicHttpServer parses the requests (HTTP and RTSP) and pyatv's HAPSession
frames the connection once a pairing enabled encryption. This script adds only what a test needs to
see a cast arrive: /server-info (an AirPlay 2 record), SETUP (an event port), RECORD, /play, /rate,
/scrub and /stop answered 200, and one line on standard output per request, with the pairing state
of the connection it came on, and one line per pairing that switched a connection to HAP frames:

    <METHOD> <path> <encrypted|clear>[ Content-Location=<url>]
    ENCRYPTED after <pair-setup (HKP n)|pair-verify>
    EVENTS connected

It prints its port first, and serves until killed.
"""

import asyncio
import plistlib
import sys

from pyatv.auth.hap_session import HAPSession
from pyatv.protocols.airplay.server_auth import AirPlayServerAuth
from pyatv.support.http import BasicHttpServer, HttpResponse, http_server

PIN = int(sys.argv[1])
DEVICE_ID = "AA:BB:CC:DD:EE:01"
# Bits 0 (video), 38 and 48 (AirPlay 2, pairing and encryption), as an Apple TV's record has them.
FEATURES = (1 << 0) | (1 << 4) | (1 << 38) | (1 << 48)


def say(line: str) -> None:
    print(line, flush=True)


class Receiver(AirPlayServerAuth):
    def __init__(self, connection: "Connection") -> None:
        super().__init__("pyatv receiver", pin=PIN)
        self.connection = connection
        self.add_route("GET", "^/server-info$", self.server_info)
        for method, path in [("SETUP", ".*"), ("RECORD", ".*"), ("POST", "^/play$"), ("POST", "^/rate.*"),
                             ("POST", "^/scrub.*"), ("POST", "^/stop$"), ("POST", "^/feedback$")]:
            self.add_route(method, path, self.cast_request)

    def enable_encryption(self, output_key: bytes, input_key: bytes) -> None:
        # The answer that finished the pairing still goes out in the clear.
        self.connection.pending_keys = (output_key, input_key)
        say("ENCRYPTED after " + self.connection.exchange)

    def handle_pair_setup(self, request):
        self.connection.exchange = "pair-setup (HKP " + request.headers.get("X-Apple-HKP", "?") + ")"
        return super().handle_pair_setup(request)

    def handle_pair_verify(self, request):
        self.connection.exchange = "pair-verify"
        return super().handle_pair_verify(request)

    def answer(self, request, body: bytes = b"", content_type: str = "") -> HttpResponse:
        headers = {}
        if "CSeq" in request.headers:
            headers["CSeq"] = request.headers["CSeq"]
        if content_type:
            headers["Content-Type"] = content_type
        return HttpResponse(request.protocol, request.version, 200, "OK", headers, body)

    def server_info(self, request):
        body = plistlib.dumps({"deviceid": DEVICE_ID, "features": FEATURES, "model": "AppleTV6,2", "name": "pyatv receiver"})
        return self.answer(request, body, "text/x-apple-plist+xml")

    def cast_request(self, request):
        state = "encrypted" if self.connection.session.chacha20 is not None else "clear"
        line = f"{request.method} {request.path} {state}"
        if request.path == "/play" and request.body:
            line += " Content-Location=" + plistlib.loads(request.body).get("Content-Location", "")
        say(line)
        if request.method == "SETUP":
            body = plistlib.dumps({"eventPort": EVENT_PORT, "timingPort": 0}, fmt=plistlib.FMT_BINARY)
            return self.answer(request, body, "application/x-apple-binary-plist")
        return self.answer(request)


class Connection(BasicHttpServer):
    def __init__(self) -> None:
        self.session = HAPSession()
        self.pending_keys = None
        self.exchange = ""
        super().__init__(Receiver(self))

    def process_received(self, data: bytes) -> bytes:
        return self.session.decrypt(data)

    def process_sent(self, data: bytes) -> bytes:
        # pyatv writes no Content-Length for an empty body (its /pair-pin-start answer, say), which an
        # HTTP/1.1 client reads as "until the connection closes".
        head, _, body = data.partition(b"\r\n\r\n")
        if b"content-length:" not in head.lower():
            data = head + b"\r\nContent-Length: 0\r\n\r\n" + body
        data = self.session.encrypt(data)
        if self.pending_keys:
            self.session.enable(*self.pending_keys)
            self.pending_keys = None
        return data


class EventChannel(asyncio.Protocol):
    def connection_made(self, transport) -> None:
        say("EVENTS connected")


async def main() -> None:
    global EVENT_PORT
    loop = asyncio.get_running_loop()
    events = await loop.create_server(EventChannel, "127.0.0.1", 0)
    EVENT_PORT = events.sockets[0].getsockname()[1]
    _, port = await http_server(Connection, "127.0.0.1", 0)
    say(str(port))
    await asyncio.Event().wait()


EVENT_PORT = 0
asyncio.run(main())
