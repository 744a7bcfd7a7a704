"""Creates at concurrency C against one stateful mock on 127.0.0.1; prints creates/s at 100 and 10,000 rows.

Usage: bench-writes.py API PORT TOTAL WINDOW CONCURRENCY [PROPERTIES_FIXTURE]
Sends TOTAL creates over CONCURRENCY keep-alive connections (only to 127.0.0.1), then reports the rate of
the WINDOW creates that follow the 100th and the 10,000th, their ratio, and the p50/p99 of every create.
EasyCo's only creates are favorites and applications, unique per (user, property): its creates are the
default user's favorites of the properties of PROPERTIES_FIXTURE (a `GET /rest/v1/properties` fixture file
the mock was started with through --fixtures).
"""
import asyncio
import datetime
import json
import sys
import time
import urllib.request

HOST = "127.0.0.1"
api, port, total, window, concurrency = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
base = f"http://{HOST}:{port}"


def call(method, path, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read() or b"null")


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


now = datetime.datetime.now(datetime.timezone.utc)
if api == "fitness":
    token = call("POST", "/__understudy/token", {})["accessToken"]
    headers, path = {"Authorization": f"Bearer {token}"}, "/activities"

    def body(i):
        return {"sportType": "Running", "title": f"Run {i}", "location": "Lyon", "date": "2025-11-15",
                "time": "2025-11-15T14:30:00Z", "participants": 4, "level": "Beginner", "visibility": "public"}
elif api == "videgreniers":
    token = call("POST", "/__understudy/token", {})["accessToken"]
    headers, path = {"Authorization": f"Bearer {token}"}, "/api/events"
    start = now + datetime.timedelta(days=3)

    def body(i):
        return {"title": f"Vide-grenier {i}", "description": "Exposants, buvette.", "eventType": 0,
                "startDate": iso(start), "endDate": iso(start + datetime.timedelta(hours=10)),
                "street": "12 rue des Lilas", "city": "Lyon", "postalCode": "69003", "country": "France",
                "latitude": 45.76, "longitude": 4.85, "allowsEarlyBird": False}
elif api == "easyco":
    grant = call("POST", "/__understudy/token", {})
    headers = {"Authorization": f"Bearer {grant['access_token']}", "apikey": grant["apikey"]}
    path, user = "/rest/v1/favorites", grant["user"]
    with open(sys.argv[6]) as fixture:
        properties = [row["id"] for row in json.load(fixture)["responses"]["200"]]

    def body(i):
        return {"user_id": user, "property_id": properties[i]}
elif api == "intra42":
    token = call("POST", "/__understudy/token", {})["access_token"]
    headers, path = {"Authorization": f"Bearer {token}"}, "/v2/slots"
    user = call("GET", "/v2/me", headers=headers)["id"]
    # Past the seeded slots (the coming days).
    first = (now + datetime.timedelta(days=30)).replace(minute=0, second=0, microsecond=0)

    def body(i):
        begin = first + datetime.timedelta(minutes=15 * i)
        return {"slot": {"user_id": user, "begin_at": iso(begin), "end_at": iso(begin + datetime.timedelta(minutes=15))}}
else:
    sys.exit(f"unknown API {api}")

header_text = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
done = []  # (finish time, latency, status)
failures = []
next_index = 0


async def worker():
    global next_index
    reader, writer = await asyncio.open_connection(HOST, port)
    while next_index < total:
        index = next_index
        next_index += 1
        payload = json.dumps(body(index)).encode()
        request = (f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {len(payload)}\r\n{header_text}\r\n").encode() + payload
        began = time.perf_counter()
        writer.write(request)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        answer = await reader.readexactly(length)
        finished = time.perf_counter()
        done.append((finished, finished - began, status))
        if status >= 300 and len(failures) < 3:
            failures.append(f"{status} {answer[:200]!r}")
    writer.close()


async def main():
    await asyncio.wait_for(asyncio.gather(*(worker() for _ in range(concurrency))), timeout=900)


asyncio.run(main())
done.sort()
ok = sum(1 for _, _, status in done if status < 300)
if failures or ok != total:
    sys.exit(f"{api}: {ok} of {total} creates succeeded: {failures}")


def rate(start):
    stop = min(start + window, len(done) - 1)
    if stop <= start:
        return float("nan")
    return (stop - start) / (done[stop][0] - done[start][0])


latencies = sorted(latency for _, latency, _ in done)
small, large = rate(100), rate(10_000)
print(f"{small:.0f} {large:.0f} {large / small:.2f} {latencies[len(latencies) // 2] * 1000:.1f} "
      f"{latencies[int(len(latencies) * 0.99)] * 1000:.1f}")
