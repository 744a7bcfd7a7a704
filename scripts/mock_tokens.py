"""Mints COUNT tokens of a running mock's default user (`POST /__understudy/token`), each different, and writes them
as a Lua table for wrk scripts (`tokens = {...}`); prints the first. Rotating them keeps every request out of the
engine's answer cache (1,024 answers) when COUNT is larger.

    python3 scripts/mock_tokens.py PORT OUT.lua [COUNT=1500]
"""
import json, sys, urllib.request

port, path = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 1500
tokens = []
for _ in range(count):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/__understudy/token", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
    body = json.load(urllib.request.urlopen(request))
    tokens.append(body.get("accessToken") or body["access_token"])
assert len(set(tokens)) == len(tokens), "the tokens must differ"
open(path, "w").write("tokens = {" + ",".join(json.dumps(token) for token in tokens) + "}\n")
print(tokens[0])
