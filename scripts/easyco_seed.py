"""Grows the EasyCo mock's tables through its own PostgREST API, for the benchmarks (bench-postgrest.sh,
bench-lists.sh): property i and application i for every i in a range, in array inserts of 10,000 rows with the
service_role key. The rows are the same on every run (uuid5 ids), spread over the seeded owners, eight cities, six
statuses (half published), rents of 300-1,999 and a year of creation times.

    python3 scripts/easyco_seed.py PORT MOCK_LOG FROM TO
"""
import http.client, json, re, sys, uuid

CITIES = ["Lyon", "Paris", "Lille", "Nantes", "Bordeaux", "Toulouse", "Marseille", "Nice"]
STATUSES = ["published", "published", "published", "draft", "archived", "rented"]
APPLICATIONS = ["pending", "reviewing", "approved", "rejected"]


def service_key(log):
    """The service_role key the mock printed at start."""
    return re.search(r"service_role key \(bypasses row-level security\): (\S+)", open(log).read()).group(1)


class Client:
    def __init__(self, port, key):
        self.connection = http.client.HTTPConnection("127.0.0.1", port)
        self.key = key

    def send(self, method, path, body=None, prefer=None):
        headers = {"apikey": self.key}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if prefer:
            headers["Prefer"] = prefer
        self.connection.request(method, "/rest/v1/" + path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        if response.status >= 300:
            sys.exit(f"{method} {path}: {response.status} {data[:300]!r}")
        return response, data


def seed(client, start, end):
    """Inserts properties and applications start..<end."""
    owners = sorted({row["owner_id"] for row in json.loads(client.send("GET", "properties?select=owner_id")[1])})
    for first in range(start, end, 10_000):
        batch = range(first, min(first + 10_000, end))
        ids = [str(uuid.uuid5(uuid.NAMESPACE_URL, f"bench property {i}")) for i in batch]
        properties = [{
            "id": ids[n], "owner_id": owners[i % len(owners)], "title": f"Logement {i}", "property_type": "apartment",
            "address": f"{i} rue du Banc", "city": CITIES[i * 7 % len(CITIES)], "postal_code": "69001",
            "bedrooms": 1 + i * 13 % 5, "monthly_rent": 300 + i * 37 % 1700, "deposit": None if i % 5 == 0 else 900,
            "status": STATUSES[i * 11 % len(STATUSES)], "is_available": i % 4 != 0,
            "created_at": f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00Z",
        } for n, i in enumerate(batch)]
        client.send("POST", "properties", json.dumps(properties), "return=minimal")
        applications = [{
            "property_id": ids[n], "applicant_id": owners[(i + 1) % len(owners)], "applicant_name": f"Candidat {i}",
            "applicant_email": f"candidat{i}@example.com", "status": APPLICATIONS[i % len(APPLICATIONS)],
        } for n, i in enumerate(batch)]
        client.send("POST", "applications", json.dumps(applications), "return=minimal")


if __name__ == "__main__":
    port, log, start, end = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    seed(Client(port, service_key(log)), start, end)
