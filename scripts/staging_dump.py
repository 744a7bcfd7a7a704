#!/usr/bin/env python3
"""Seeds a real server through its own API, and dumps everything it holds, for the staging check.

    scripts/staging_dump.py seed SERVER URL      # the seeded staging data (once, after the server starts)
    scripts/staging_dump.py dump SERVER URL      # every item the server holds, as sorted JSON, on stdout

SERVER is `chroma` or `kinto`, URL the base URL scripts/real-server.sh prints (Kinto's ends in /v1). The dump walks
the server's own lists down to every item, with the permissions where the server keeps them, so a before/after pair
shows any item `check` changed, deleted or left behind. Timestamps the server keeps on an item are part of it: an item written and written back is
a change too.
"""
import base64
import json
import sys
import urllib.error
import urllib.request

# Kinto's staging administrator, made by the seed; `check` signs in as it (a Basic header), so it can see and could
# change everything: the seeded data is only safe if check leaves what it did not make alone.
KINTO_ADMIN = ("admin", "understudy-staging-admin")
KINTO_ALICE = ("alice", "understudy-staging-alice")


def basic(user):
    return "Basic " + base64.b64encode(f"{user[0]}:{user[1]}".encode()).decode()


def call(method, url, body=None, user=None):
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if user:
        headers["Authorization"] = basic(user)
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, headers, method=method)
    try:
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        sys.exit(f"staging_dump: {method} {url} answered {error.code}: {error.read()[:300]!r}")


def seed_kinto(url):
    base = url
    for user in (KINTO_ADMIN, KINTO_ALICE):
        call("PUT", f"{base}/accounts/{user[0]}", {"data": {"password": user[1]}})
    admin = KINTO_ADMIN
    call("PUT", f"{base}/buckets/staging", {
        "data": {"title": "Staging"},
        "permissions": {"read": ["system.Authenticated"], "collection:create": ["account:alice"]},
    }, admin)
    call("PUT", f"{base}/buckets/staging/groups/editors", {"data": {"members": ["account:alice"]}}, admin)
    call("PUT", f"{base}/buckets/staging/collections/articles", {
        "data": {"title": "Articles"}, "permissions": {"record:create": ["/buckets/staging/groups/editors"]},
    }, admin)
    for slug, title in (("first", "First post"), ("second", "Second post"), ("third", "Third post")):
        call("PUT", f"{base}/buckets/staging/collections/articles/records/{slug}",
             {"data": {"title": title, "published": slug != "third"}}, admin)
    call("PUT", f"{base}/buckets/staging/collections/authors", {"data": {"title": "Authors"}}, admin)
    call("POST", f"{base}/buckets/staging/collections/authors/records",
         {"data": {"name": "Alice", "account": "account:alice"}}, admin)
    call("PUT", f"{base}/buckets/archive", {"data": {"title": "Archive"}}, admin)
    call("PUT", f"{base}/buckets/archive/collections/old", {"data": {"title": "Old"}}, admin)


def dump_kinto(url):
    base = url
    admin = KINTO_ADMIN

    def items(path):
        return sorted(item["id"] for item in call("GET", f"{base}{path}", user=admin)["data"])

    def item(path):
        return call("GET", f"{base}{path}", user=admin)

    # An account is read by itself (and the administrator): each seeded user lists its own.
    accounts = {}
    for user in (KINTO_ADMIN, KINTO_ALICE):
        for account in call("GET", f"{base}/accounts", user=user)["data"]:
            accounts[account["id"]] = call("GET", f"{base}/accounts/{account['id']}", user=user)
    dump = {"accounts": accounts, "buckets": {}}
    for bucket in items("/buckets"):
        entry = {"bucket": item(f"/buckets/{bucket}"), "groups": {}, "collections": {}}
        for group in items(f"/buckets/{bucket}/groups"):
            entry["groups"][group] = item(f"/buckets/{bucket}/groups/{group}")
        for collection in items(f"/buckets/{bucket}/collections"):
            path = f"/buckets/{bucket}/collections/{collection}"
            entry["collections"][collection] = {
                "collection": item(path),
                "records": {r: item(f"{path}/records/{r}") for r in items(f"{path}/records")},
            }
        dump["buckets"][bucket] = entry
    return dump


def dump_chroma(url):
    base = url + "/api/v2/tenants/default_tenant/databases"
    dump = {}
    for database in sorted(d["name"] for d in call("GET", base)):
        collections = {}
        for collection in call("GET", f"{base}/{database}/collections"):
            records = call("POST", f"{base}/{database}/collections/{collection['id']}/get",
                           {"include": ["documents", "metadatas", "embeddings"]})
            collections[collection["name"]] = {"collection": collection, "records": records}
        dump[database] = collections
    return dump


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("seed", "dump") or sys.argv[2] not in ("chroma", "kinto"):
        sys.exit(__doc__)
    action, server, url = sys.argv[1:]
    if action == "seed":
        if server == "kinto":
            seed_kinto(url)
        else:
            sys.exit("staging_dump: Chroma is seeded by scripts/real-server.sh")
        return
    dump = dump_kinto(url) if server == "kinto" else dump_chroma(url)
    json.dump(dump, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
