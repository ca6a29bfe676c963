"""Drives tilekit-lsp-server as an editor would, over stdio (JSON-RPC with
Content-Length headers): opens a kernel, prints the diagnostics it
publishes, then hover and go-to-definition at a use of a value, then opens
a broken version and prints its diagnostics.

usage: lsp_client.py SERVER KERNEL.mlir LINE COLUMN
(LINE and COLUMN, 0-based, point at a use of an SSA value)
"""
import json
import signal
import subprocess
import sys

# A server that stops answering fails the test instead of hanging it.
signal.alarm(60)

server, path, line, column = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
proc = subprocess.Popen([server], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL)
ids = iter(range(1, 1000))


def send(method, params, request=True):
    message = {"jsonrpc": "2.0", "method": method, "params": params}
    if request:
        message["id"] = next(ids)
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()
    return message.get("id")


def receive():
    length = 0
    while True:
        header = proc.stdout.readline().decode().strip()
        if not header:
            break
        if header.lower().startswith("content-length:"):
            length = int(header.split(":")[1])
    return json.loads(proc.stdout.read(length))


def wait_for(predicate):
    while True:
        message = receive()
        if predicate(message):
            return message


def request(method, params):
    """Sends a request and returns the server's reply to it."""
    sent = send(method, params)
    return wait_for(lambda m: m.get("id") == sent)


uri = "file://" + path
text = open(path).read()
request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
send("initialized", {}, request=False)
send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir",
                                               "version": 1, "text": text}}, request=False)
diagnostics = wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")
print("diagnostics:", len(diagnostics["params"]["diagnostics"]))

position = {"textDocument": {"uri": uri}, "position": {"line": line, "character": column}}
hover = request("textDocument/hover", position)
print("hover:", " ".join(hover["result"]["contents"]["value"].split())[:160])
definition = request("textDocument/definition", position)
print("definition: line", definition["result"][0]["range"]["start"]["line"])

broken = text.replace("pto.vreg.load %xs[64]", "pto.vreg.load %xs[4]", 1)
send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                "contentChanges": [{"text": broken}]}, request=False)
diagnostics = wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")
for d in diagnostics["params"]["diagnostics"]:
    print("diagnostic: line %d: %s" % (d["range"]["start"]["line"], d["message"]))
request("shutdown", None)
send("exit", None, request=False)
proc.wait(timeout=10)
