#!/usr/bin/env python3
"""Helpers for test/keystone/keystone.sh, standard library only.

  provision.py wait --url URL --pid PID --timeout S
      poll GET URL until it answers 200; exit 3 if PID dies first, 4 on timeout
  provision.py provision --dir DIR --auth-url URL --port PORT --pid PID
      (admin password in $KEYSTONE_ADMIN_PASSWORD) create the costgate domain, project, user,
      role grant and application credential; write DIR/env.json and DIR/openrc
  provision.py capture --dir DIR --out OUTDIR
      record real Keystone request/response pairs as OUTDIR/*.json, secrets and tokens replaced
"""

import argparse
import http.client
import json
import os
import secrets
import subprocess
import sys
import time
import urllib.parse

DOMAIN_NAME = "costgate-dom"
PROJECT_NAME = "costgate-proj"
USER_NAME = "costgate-user"
ROLE_NAME = "member"
APP_CRED_NAME = "costgate-appcred"
REGION_ID = "RegionOne"


class Response:
    def __init__(self, status, reason, headers, raw):
        self.status = status
        self.reason = reason
        self.headers = headers  # list of (name, value), in wire order
        self.raw = raw

    def header(self, name):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return None

    def json(self):
        return json.loads(self.raw.decode("utf-8")) if self.raw else None


def request(base, method, path, body=None, headers=None, raw_body=None, timeout=30):
    """One HTTP exchange; never raises for HTTP error statuses."""
    u = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
    hdrs = {"Accept": "application/json"}
    data = None
    if raw_body is not None:
        data = raw_body.encode("utf-8")
        hdrs["Content-Type"] = "application/json"
    elif body is not None:
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        hdrs["Content-Type"] = "application/json"
    hdrs.update(headers or {})
    try:
        conn.request(method, path, body=data, headers=hdrs)
        resp = conn.getresponse()
        raw = resp.read()
        return Response(resp.status, resp.reason, list(resp.getheaders()), raw)
    finally:
        conn.close()


def expect(resp, status, what):
    if resp.status != status:
        text = resp.raw.decode("utf-8", "replace")[:2000]
        raise SystemExit(f"provision.py: {what}: expected HTTP {status}, got {resp.status} {resp.reason}: {text}")
    return resp


def v3_path(auth_url, suffix):
    """auth_url is http://host:port/v3; suffix like /auth/tokens."""
    return urllib.parse.urlsplit(auth_url).path.rstrip("/") + suffix


def password_auth(user, password, scope=None):
    body = {"auth": {"identity": {"methods": ["password"], "password": {"user": dict(user, password=password)}}}}
    if scope is not None:
        body["auth"]["scope"] = scope
    return body


def app_cred_auth(cred):
    return {"auth": {"identity": {"methods": ["application_credential"], "application_credential": cred}}}


# ---------------------------------------------------------------------------------------------------------
def cmd_wait(args):
    deadline = time.monotonic() + args.timeout
    path = urllib.parse.urlsplit(args.url).path or "/"
    while True:
        try:
            os.kill(args.pid, 0)
        except ProcessLookupError:
            print(f"provision.py: pid {args.pid} exited before {args.url} answered", file=sys.stderr)
            return 3
        try:
            if request(args.url, "GET", path, timeout=5).status == 200:
                return 0
        except OSError:
            pass
        if time.monotonic() >= deadline:
            print(f"provision.py: {args.url} did not answer within {args.timeout}s", file=sys.stderr)
            return 4
        time.sleep(0.2)


def cmd_provision(args):
    url = args.auth_url
    admin_password = os.environ.get("KEYSTONE_ADMIN_PASSWORD")
    if not admin_password:
        raise SystemExit("provision.py: KEYSTONE_ADMIN_PASSWORD is not set")

    def call(method, suffix, body=None, token=None, status=200, what=None):
        headers = {"X-Auth-Token": token} if token else {}
        resp = request(url, method, v3_path(url, suffix), body=body, headers=headers)
        return expect(resp, status, what or f"{method} {suffix}")

    admin = call(
        "POST",
        "/auth/tokens",
        password_auth(
            {"name": "admin", "domain": {"id": "default"}},
            admin_password,
            {"project": {"name": "admin", "domain": {"id": "default"}}},
        ),
        status=201,
        what="admin password authentication",
    )
    admin_token = admin.header("X-Subject-Token")

    domain = call(
        "POST",
        "/domains",
        {"domain": {"name": DOMAIN_NAME, "description": "costgate test domain", "enabled": True}},
        admin_token,
        201,
    ).json()["domain"]
    project = call(
        "POST",
        "/projects",
        {"project": {"name": PROJECT_NAME, "domain_id": domain["id"], "description": "costgate test project"}},
        admin_token,
        201,
    ).json()["project"]

    roles = call("GET", f"/roles?name={ROLE_NAME}", token=admin_token).json()["roles"]
    if roles:
        role = roles[0]
    else:  # keystone-manage bootstrap creates admin, member and reader since Rocky; older ones did not
        role = call("POST", "/roles", {"role": {"name": ROLE_NAME}}, admin_token, 201).json()["role"]

    # Non-ASCII on purpose: clients must send UTF-8 JSON. bcrypt only looks at the first 72 bytes.
    password = f"pässwörd-{secrets.token_hex(6)}-日本"
    user = call(
        "POST",
        "/users",
        {"user": {"name": USER_NAME, "domain_id": domain["id"], "password": password, "enabled": True}},
        admin_token,
        201,
    ).json()["user"]
    call("PUT", f"/projects/{project['id']}/users/{user['id']}/roles/{role['id']}", token=admin_token, status=204)

    user_token = call(
        "POST",
        "/auth/tokens",
        password_auth(
            {"name": USER_NAME, "domain": {"name": DOMAIN_NAME}},
            password,
            {"project": {"name": PROJECT_NAME, "domain": {"id": domain["id"]}}},
        ),
        status=201,
        what="user password authentication",
    ).header("X-Subject-Token")

    # Created by the user itself (policy: identity:create_application_credential is user_id:%(user_id)s);
    # it is bound to the token's project. No secret given: Keystone generates one and returns it once.
    cred = call(
        "POST",
        f"/users/{user['id']}/application_credentials",
        {"application_credential": {"name": APP_CRED_NAME, "description": "costgate test application credential"}},
        user_token,
        201,
    ).json()["application_credential"]

    env = {
        "authUrl": url,
        "port": args.port,
        "pid": args.pid,
        "adminPassword": admin_password,
        "domainId": domain["id"],
        "domainName": domain["name"],
        "projectId": project["id"],
        "projectName": project["name"],
        "userId": user["id"],
        "userName": user["name"],
        "password": password,
        "roleName": role["name"],
        "appCredId": cred["id"],
        "appCredName": cred["name"],
        "appCredSecret": cred["secret"],
        "regionId": REGION_ID,
    }
    env_path = os.path.join(args.dir, "env.json")
    write_private(env_path, json.dumps(env, indent=2, ensure_ascii=False) + "\n")

    def q(s):
        return "'" + s.replace("'", "'\\''") + "'"

    openrc = "\n".join(
        [
            "# source me: application-credential auth against the test Keystone",
            f"export OS_AUTH_URL={q(url)}",
            "export OS_AUTH_TYPE=v3applicationcredential",
            "export OS_IDENTITY_API_VERSION=3",
            f"export OS_REGION_NAME={q(REGION_ID)}",
            "export OS_INTERFACE=public",
            f"export OS_APPLICATION_CREDENTIAL_ID={q(cred['id'])}",
            f"export OS_APPLICATION_CREDENTIAL_SECRET={q(cred['secret'])}",
            "unset OS_USERNAME OS_PASSWORD OS_PROJECT_NAME OS_PROJECT_ID OS_USER_DOMAIN_NAME OS_PROJECT_DOMAIN_ID",
            "",
        ]
    )
    write_private(os.path.join(args.dir, "openrc"), openrc)
    return 0


def write_private(path, text):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


# ---------------------------------------------------------------------------------------------------------
class Capturer:
    """Runs exchanges against Keystone and writes them, with secrets replaced, as JSON files."""

    def __init__(self, env, out):
        self.env = env
        self.out = out
        self.base = env["authUrl"]
        self.secrets = {}  # secret value -> placeholder
        self.tokens = 0
        self.files = []
        self.add_secret(env["adminPassword"], "<ADMIN_PASSWORD>")
        self.add_secret(env["password"], "<USER_PASSWORD>")
        self.add_secret(env["appCredSecret"], "<APP_CRED_SECRET>")

    def add_secret(self, value, placeholder):
        if value and value not in self.secrets:
            self.secrets[value] = placeholder

    def scrub(self, value):
        if isinstance(value, str):
            # longest first, so a token containing a shorter secret is replaced whole
            for secret in sorted(self.secrets, key=len, reverse=True):
                value = value.replace(secret, self.secrets[secret])
            return value
        if isinstance(value, list):
            return [self.scrub(v) for v in value]
        if isinstance(value, dict):
            return {k: self.scrub(v) for k, v in value.items()}
        return value

    def run(self, name, description, method, path, body=None, headers=None, raw_body=None):
        resp = request(self.base, method, path, body=body, headers=headers, raw_body=raw_body)
        token = resp.header("X-Subject-Token")
        if token and token not in self.secrets:
            self.tokens += 1
            self.add_secret(token, f"<TOKEN_{self.tokens}>")
        sent = {"Accept": "application/json"}
        if body is not None or raw_body is not None:
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        record = {
            "description": description,
            "request": {"method": method, "path": path, "headers": sent},
            "response": {
                "status": resp.status,
                "reason": resp.reason,
                "headers": [[k, v] for k, v in resp.headers],
            },
        }
        if raw_body is not None:
            record["request"]["rawBody"] = raw_body
        elif body is not None:
            record["request"]["body"] = body
        if resp.raw:
            try:
                record["response"]["body"] = json.loads(resp.raw.decode("utf-8"))
            except ValueError:
                record["response"]["bodyText"] = resp.raw.decode("utf-8", "replace")
        else:
            record["response"]["body"] = None
        path_out = os.path.join(self.out, f"{name}.json")
        with open(path_out, "w", encoding="utf-8") as f:
            f.write(json.dumps(self.scrub(record), indent=2, ensure_ascii=False) + "\n")
        self.files.append({"file": f"{name}.json", "status": resp.status, "description": description})
        return resp


def cmd_capture(args):
    with open(os.path.join(args.dir, "env.json"), encoding="utf-8") as f:
        env = json.load(f)
    os.makedirs(args.out, exist_ok=True)
    c = Capturer(env, args.out)
    tokens = v3_path(env["authUrl"], "/auth/tokens")
    v3 = v3_path(env["authUrl"], "")
    user_scope = {"project": {"name": env["projectName"], "domain": {"id": env["domainId"]}}}
    user_ref = {"name": env["userName"], "domain": {"name": env["domainName"]}}
    app_cred = {"id": env["appCredId"], "secret": env["appCredSecret"]}
    bogus_token = "gAAAAABnotarealtoken" + "x" * 160

    c.run("get-root", "GET / (version discovery, all versions)", "GET", "/")
    c.run("get-v3", "GET /v3 (version document)", "GET", v3)

    r = c.run(
        "post-auth-tokens-app-cred",
        "application credential by id + secret, no scope (the credential's project is the scope)",
        "POST",
        tokens,
        app_cred_auth(app_cred),
    )
    app_token = r.header("X-Subject-Token")
    c.run(
        "post-auth-tokens-app-cred-by-name",
        "application credential by name + user id + secret",
        "POST",
        tokens,
        app_cred_auth({"name": env["appCredName"], "user": {"id": env["userId"]}, "secret": env["appCredSecret"]}),
    )
    c.run(
        "post-auth-tokens-app-cred-nocatalog",
        "application credential, ?nocatalog",
        "POST",
        tokens + "?nocatalog",
        app_cred_auth(app_cred),
    )
    r = c.run(
        "post-auth-tokens-password-project",
        "password (non-ASCII), user by name + domain name, project by name + domain id",
        "POST",
        tokens,
        password_auth(user_ref, env["password"], user_scope),
    )
    pw_token = r.header("X-Subject-Token")
    c.run(
        "post-auth-tokens-password-unscoped",
        "password, no scope (the user has no default project: unscoped token)",
        "POST",
        tokens,
        password_auth(user_ref, env["password"]),
    )

    # failures
    c.run(
        "post-auth-tokens-app-cred-wrong-secret",
        "application credential with a wrong secret",
        "POST",
        tokens,
        app_cred_auth({"id": env["appCredId"], "secret": "wrong-secret"}),
    )
    c.run(
        "post-auth-tokens-app-cred-secret-suffix",
        "application credential whose secret has extra characters appended: accepted, bcrypt compares only "
        "the first 72 bytes (the generated secret is 86 characters)",
        "POST",
        tokens,
        app_cred_auth({"id": env["appCredId"], "secret": env["appCredSecret"] + "-extra"}),
    )
    c.run(
        "post-auth-tokens-app-cred-unknown-id",
        "application credential id that does not exist",
        "POST",
        tokens,
        app_cred_auth({"id": "0" * 32, "secret": "whatever"}),
    )
    c.run(
        "post-auth-tokens-app-cred-with-scope",
        "application credential plus an explicit project scope",
        "POST",
        tokens,
        {"auth": dict(app_cred_auth(app_cred)["auth"], scope=user_scope)},
    )
    c.run(
        "post-auth-tokens-password-wrong",
        "password auth with a wrong password",
        "POST",
        tokens,
        password_auth(user_ref, "wrong-password", user_scope),
    )
    c.run(
        "post-auth-tokens-password-unknown-project",
        "password auth, project name that does not exist",
        "POST",
        tokens,
        password_auth(user_ref, env["password"], {"project": {"name": "nope", "domain": {"id": env["domainId"]}}}),
    )
    c.run(
        "post-auth-tokens-missing-methods",
        "malformed: identity without methods",
        "POST",
        tokens,
        {"auth": {"identity": {"password": {"user": dict(user_ref, password="x")}}}},
    )
    c.run(
        "post-auth-tokens-unknown-method",
        "malformed: a method Keystone does not know",
        "POST",
        tokens,
        {"auth": {"identity": {"methods": ["magic"], "magic": {}}}},
    )
    c.run("post-auth-tokens-empty-object", "malformed: {}", "POST", tokens, {})
    c.run("post-auth-tokens-invalid-json", "malformed: not JSON", "POST", tokens, raw_body="{not json")

    # validation: the subject validates its own token (policy allows the token's own subject)
    c.run(
        "get-auth-tokens-valid",
        "validate a valid token (app-cred token validating itself)",
        "GET",
        tokens,
        headers={"X-Auth-Token": app_token, "X-Subject-Token": app_token},
    )
    c.run(
        "get-auth-tokens-valid-password",
        "validate a valid project-scoped password token (validating itself)",
        "GET",
        tokens,
        headers={"X-Auth-Token": pw_token, "X-Subject-Token": pw_token},
    )
    c.run(
        "get-auth-tokens-invalid-subject",
        "validate a garbage X-Subject-Token with a valid X-Auth-Token",
        "GET",
        tokens,
        headers={"X-Auth-Token": app_token, "X-Subject-Token": bogus_token},
    )
    c.run(
        "get-auth-tokens-invalid-auth",
        "validate with a garbage X-Auth-Token",
        "GET",
        tokens,
        headers={"X-Auth-Token": bogus_token, "X-Subject-Token": app_token},
    )
    c.run(
        "get-auth-tokens-no-subject",
        "GET /v3/auth/tokens without X-Subject-Token",
        "GET",
        tokens,
        headers={"X-Auth-Token": app_token},
    )
    c.run(
        "get-auth-tokens-no-auth",
        "GET /v3/auth/tokens without X-Auth-Token",
        "GET",
        tokens,
        headers={"X-Subject-Token": app_token},
    )
    c.run(
        "head-auth-tokens-valid",
        "HEAD check of a valid token",
        "HEAD",
        tokens,
        headers={"X-Auth-Token": app_token, "X-Subject-Token": app_token},
    )
    c.run(
        "head-auth-tokens-invalid",
        "HEAD check of a garbage token",
        "HEAD",
        tokens,
        headers={"X-Auth-Token": app_token, "X-Subject-Token": bogus_token},
    )

    # an application credential create response (and delete), with the user's own token
    r = c.run(
        "post-application-credentials",
        "create an application credential (no secret given: Keystone generates it)",
        "POST",
        v3_path(env["authUrl"], f"/users/{env['userId']}/application_credentials"),
        {"application_credential": {"name": "costgate-capture", "description": "captured"}},
        headers={"X-Auth-Token": pw_token},
    )
    if r.status == 201:
        created = r.json()["application_credential"]
        c.add_secret(created["secret"], "<NEW_APP_CRED_SECRET>")
        # re-scrub the file written before the secret was known
        p = os.path.join(args.out, "post-application-credentials.json")
        with open(p, encoding="utf-8") as f:
            data = json.load(f)
        with open(p, "w", encoding="utf-8") as f:
            f.write(json.dumps(c.scrub(data), indent=2, ensure_ascii=False) + "\n")
        c.run(
            "delete-application-credential",
            "delete an application credential",
            "DELETE",
            v3_path(env["authUrl"], f"/users/{env['userId']}/application_credentials/{created['id']}"),
            headers={"X-Auth-Token": pw_token},
        )

    # revoke: the token revokes itself, then validating it fails
    r = c.run(
        "post-auth-tokens-password-project-to-revoke",
        "a second project-scoped password token, to be revoked",
        "POST",
        tokens,
        password_auth(user_ref, env["password"], user_scope),
    )
    doomed = r.header("X-Subject-Token")
    c.run(
        "delete-auth-tokens",
        "revoke a token (X-Auth-Token: another valid token of the same user)",
        "DELETE",
        tokens,
        headers={"X-Auth-Token": pw_token, "X-Subject-Token": doomed},
    )
    c.run(
        "get-auth-tokens-revoked",
        "validate the revoked token",
        "GET",
        tokens,
        headers={"X-Auth-Token": pw_token, "X-Subject-Token": doomed},
    )
    c.run(
        "delete-auth-tokens-invalid",
        "revoke a garbage token",
        "DELETE",
        tokens,
        headers={"X-Auth-Token": pw_token, "X-Subject-Token": bogus_token},
    )

    index = {
        "about": (
            "Real Keystone responses (Debian python3-keystone, served by keystone-wsgi-public, i.e. Python's "
            "wsgiref: HTTP/1.0 and its Server/Date headers; behind Apache or uWSGI the transport headers differ, "
            "the Keystone ones (Vary, x-openstack-request-id, X-Subject-Token, Openstack-Auth-Receipt) do not). "
            "Secrets and token values are replaced by <PLACEHOLDERS>, so Content-Length no longer matches the "
            "body; ids, timestamps and the loopback port are real values from the capture run. "
            "Fernet tokens are ~180-250 URL-safe base64 characters starting with 'gAAAAA'."
        ),
        "keystoneVersion": keystone_version(),
        "files": c.files,
    }
    with open(os.path.join(args.out, "index.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(c.scrub(index), indent=2, ensure_ascii=False) + "\n")
    print(f"provision.py: wrote {len(c.files)} captures to {args.out}")
    return 0


def keystone_version():
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", "python3-keystone"], capture_output=True, text=True, check=False
        )
    except OSError:
        return "unknown"
    return f"python3-keystone {out.stdout.strip()}" if out.returncode == 0 else "unknown"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("wait")
    w.add_argument("--url", required=True)
    w.add_argument("--pid", type=int, required=True)
    w.add_argument("--timeout", type=float, default=90)
    pr = sub.add_parser("provision")
    pr.add_argument("--dir", required=True)
    pr.add_argument("--auth-url", required=True)
    pr.add_argument("--port", type=int, required=True)
    pr.add_argument("--pid", type=int, required=True)
    ca = sub.add_parser("capture")
    ca.add_argument("--dir", required=True)
    ca.add_argument("--out", required=True)
    args = p.parse_args()
    return {"wait": cmd_wait, "provision": cmd_provision, "capture": cmd_capture}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
