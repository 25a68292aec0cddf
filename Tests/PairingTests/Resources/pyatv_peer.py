"""A pairing peer made of pyatv 0.18's own HAP pieces, for airlab's interoperability tests.

    python pyatv_peer.py client-transient   pyatv's controller (AirPlayHapTransientPairVerifyProcedure)
    python pyatv_peer.py server             pyatv's accessory (BaseAirPlayServerAuth, HKP 3 and 4)

It listens on 127.0.0.1, prints the port, and takes one connection from the Swift test. Lines on it:
  Swift -> peer:  "<path> <hkp> <hex body>"  (server mode: a request; the answer is "<hex body>")
  peer -> Swift:  "<hex body>"               (client mode: a request; Swift answers "<hex body>")
  either way:     "FRAME <hex>"              one HAP frame (pyatv's HAPSession) sealed with the keys
                                             the side derived; the other side answers "OPENED <hex>"
                                             with the plaintext it read.
Nothing here implements a primitive: pairing, key derivation and framing are pyatv's.
"""

import asyncio
import binascii
import socket
import sys

from pyatv.auth.hap_session import HAPSession
from pyatv.auth.hap_srp import SRPAuthHandler
from pyatv.auth.hap_tlv8 import TlvValue, read_tlv
from pyatv.protocols.airplay.auth.hap_transient import AirPlayHapTransientPairVerifyProcedure
from pyatv.protocols.airplay.server_auth import BaseAirPlayServerAuth
from pyatv.support.http import HttpRequest

listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(1)
print(listener.getsockname()[1], flush=True)
connection, _ = listener.accept()
stream = connection.makefile("rwb", buffering=0)


def send(line: str) -> None:
    stream.write(line.encode() + b"\n")


def receive() -> str:
    line = stream.readline()
    if not line:
        sys.exit("the Swift side closed the connection")
    return line.decode().strip()


def exchange_frames(session: HAPSession, text: bytes) -> None:
    """Sends one frame, then opens the one the Swift side sends and reports its plaintext."""
    send("FRAME " + session.encrypt(text).hex())
    answer = receive()
    assert answer.startswith("OPENED "), answer
    reply = receive()
    assert reply.startswith("FRAME "), reply
    send("OPENED " + session.decrypt(binascii.unhexlify(reply[6:])).hex())


class LineHttp:
    """The HttpConnection pyatv's transient procedure posts with, over the test's line protocol."""

    class Response:
        def __init__(self, body: bytes) -> None:
            self.body = body

    answers = []

    async def post(self, path, body=None, headers=None):
        if path == "/pair-pin-start":
            return self.Response(b"")
        send(body.hex())
        self.answers.append(binascii.unhexlify(receive()))
        return self.Response(self.answers[-1])


def client_transient() -> None:
    http = LineHttp()
    handler = SRPAuthHandler()
    procedure = AirPlayHapTransientPairVerifyProcedure(http, handler)
    asyncio.run(procedure.verify_credentials())
    # pyatv's procedure never reads M4; the proof in it must still be the one srptools expects.
    m4 = read_tlv(http.answers[-1])
    if m4.get(TlvValue.Proof) != binascii.unhexlify(handler._session.key_proof_hash):
        sys.exit("M4 does not carry the server proof srptools computes: " + str(m4))
    # The keys pyatv's AirPlay 2 control channel uses (protocols/airplay/auth: CONTROL_*).
    output_key, input_key = procedure.encryption_keys(
        "Control-Salt", "Control-Write-Encryption-Key", "Control-Read-Encryption-Key"
    )
    session = HAPSession()
    session.enable(output_key, input_key)
    exchange_frames(session, b"pyatv controller to airlab accessory")


class Accessory(BaseAirPlayServerAuth):
    session_keys = None

    def enable_encryption(self, output_key: bytes, input_key: bytes) -> None:
        self.session_keys = (output_key, input_key)


def server() -> None:
    accessory = Accessory("airlab-interop")
    while True:
        line = receive()
        if line == "DONE":
            return
        if line == "FRAMES":
            session = HAPSession()
            session.enable(*accessory.session_keys)
            exchange_frames(session, b"pyatv accessory to airlab controller")
            continue
        path, hkp, body = line.split(" ")
        request = HttpRequest("POST", path, "HTTP", "1.1", {"X-Apple-HKP": hkp}, binascii.unhexlify(body))
        handler = accessory.handle_pair_setup if path == "/pair-setup" else accessory.handle_pair_verify
        send(handler(request).body.hex())


{"client-transient": client_transient, "server": server}[sys.argv[1]]()
