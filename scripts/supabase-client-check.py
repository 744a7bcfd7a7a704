"""The official Supabase Python client (supabase-py, PostgREST via postgrest-py) against `understudy mock --api easyco`:
the everyday calls an app makes, each checked. Usage: supabase-client-check.py PORT MOCK_LOG (the log holds the keys
the mock printed). Exits 1 when a call fails."""
import base64, json, re, sys
from supabase import create_client

port, log_path = sys.argv[1], sys.argv[2]
log = open(log_path).read()
anon = re.search(r"apikey \(anon key\): (\S+)", log).group(1)
service = re.search(r"service_role key[^:]*: (\S+)", log).group(1)
token = re.search(r"access token for the default user[^:]*: (\S+)", log).group(1)
url = f"http://127.0.0.1:{port}"
results = []
def check(name, ok, detail=""):
    results.append(ok); print(("PASS " if ok else "FAIL ") + name, detail)

admin = create_client(url, service)
anon_client = create_client(url, anon)
user = create_client(url, anon); user.postgrest.auth(token)

r = anon_client.table("properties").select("id,title,status").eq("status", "published").order("title").limit(3).execute()
check("select eq order limit (anon)", len(r.data) > 0 and all(p["status"] == "published" for p in r.data), len(r.data))
r = admin.table("properties").select("*", count="exact", head=True).execute()
check("head count exact", r.count is not None and r.count > 0 and not r.data, r.count)
one = admin.table("properties").select("id,title").limit(1).single().execute()
check("single", isinstance(one.data, dict) and "id" in one.data, one.data)
m = admin.table("properties").select("id").eq("id", "00000000-0000-4000-8000-000000000000").maybe_single().execute()
check("maybe_single none", m is None or m.data is None, m)
pid = one.data["id"]
upd = admin.table("properties").update({"monthly_rent": 777}).eq("id", pid).execute()
check("update (service)", len(upd.data) == 1 and float(upd.data[0]["monthly_rent"]) == 777, upd.data[0]["monthly_rent"])
me = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "==="))["sub"]
taken = {f["property_id"] for f in admin.table("favorites").select("property_id").eq("user_id", me).execute().data}
props = [p for p in admin.table("properties").select("id").neq("owner_id", me).execute().data if p["id"] not in taken][:2]
ins = admin.table("favorites").insert([{"user_id": me, "property_id": p["id"]} for p in props]).execute()
check("insert many (service)", len(ins.data) == len(props), len(ins.data))
mine = user.table("favorites").select("id,property_id").execute()
check("select own rows (user JWT)", all(True for _ in mine.data) and len(mine.data) >= len(props), len(mine.data))
try:
    user.table("properties").update({"title": "x"}).neq("owner_id", me).execute()
    after = admin.table("properties").select("title").neq("owner_id", me).eq("title", "x").execute()
    check("RLS: user cannot update others' rows", len(after.data) == 0, after.data)
except Exception as e:
    check("RLS: user cannot update others' rows", False, e)
dl = admin.table("favorites").delete().in_("property_id", [p["id"] for p in props]).eq("user_id", me).execute()
check("delete", len(dl.data) == len(props), len(dl.data))
up = admin.table("favorites").upsert({"user_id": me, "property_id": props[0]["id"]}, on_conflict="user_id,property_id").execute()
check("upsert", len(up.data) == 1, up.data)
# Supabase Auth: sign in with the seeded password, read as that user, refresh, sign out, sign up.
password = re.search(r"every seeded user's password is (\S+)", log).group(1)
camille = re.search(r"default user: .* <(\S+)>", log).group(1)
auth = create_client(url, anon)
signed = auth.auth.sign_in_with_password({"email": camille, "password": password})
check("auth sign in with password", signed.session is not None and signed.user.email == camille, signed.user.id)
own = auth.table("favorites").select("user_id").execute()
check("read as the signed-in user", len(own.data) > 0 and all(f["user_id"] == signed.user.id for f in own.data), len(own.data))
check("auth get user", auth.auth.get_user().user.id == signed.user.id)
refreshed = auth.auth.refresh_session()
check("auth refresh session", refreshed.session.refresh_token != signed.session.refresh_token)
try:
    create_client(url, anon).auth.sign_in_with_password({"email": camille, "password": "wrong"})
    check("auth wrong password refused", False)
except Exception as error:
    check("auth wrong password refused", "Invalid login credentials" in str(error), error)
auth.auth.sign_out()
try:
    create_client(url, anon).auth._refresh_access_token(refreshed.session.refresh_token)
    check("refresh token revoked by sign out", False)
except Exception as error:
    check("refresh token revoked by sign out", "Refresh Token Not Found" in str(error), error)
newcomer = create_client(url, anon).auth.sign_up({"email": "newcomer@example.com", "password": "s3cret-pass"})
check("auth sign up", newcomer.session is not None and newcomer.user.email == "newcomer@example.com")

print(f"{sum(results)}/{len(results)} passed")
sys.exit(0 if all(results) else 1)
