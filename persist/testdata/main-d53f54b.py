# Drives a tableplay serve --allow-anonymous on ADDR: every Edm type, merges,
# replaces, deletes, batches, an ACL, a table deleted, then (after the log was
# compacted) a tail.
import json, sys, time, urllib.request, uuid
base = "http://%s/devstoreaccount1" % sys.argv[1]
phase = sys.argv[2]
H = {"Accept": "application/json;odata=nometadata", "Content-Type": "application/json", "DataServiceVersion": "3.0", "x-ms-version": "2020-12-06"}
def req(method, path, body=None, extra=None, ok=(200, 201, 204, 202)):
    h = dict(H); h.update(extra or {})
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    r = urllib.request.Request(base + path, data=data, method=method, headers=h)
    try:
        with urllib.request.urlopen(r) as resp:
            out = resp.read()
            assert resp.status in ok, (resp.status, out)
            return out
    except urllib.error.HTTPError as e:
        raise SystemExit("%s %s: %d %s" % (method, path, e.code, e.read()))
def ent(pk, rk, i):
    return {"PartitionKey": pk, "RowKey": rk,
            "S": "text %d \u00e9\u6f22\U0001F600" % i, "Empty": "",
            "I32": -2147483648 + i, "I32@odata.type": "Edm.Int32",
            "I64": str(9223372036854775807 - i), "I64@odata.type": "Edm.Int64",
            "D": 1.5 + i / 7.0, "DNaN": "NaN", "DNaN@odata.type": "Edm.Double",
            "DInf": "-Infinity", "DInf@odata.type": "Edm.Double",
            "B": i % 2 == 0,
            "T": "2024-02-29T23:59:59.%07dZ" % i, "T@odata.type": "Edm.DateTime",
            "T0": "1601-01-01T00:00:00Z", "T0@odata.type": "Edm.DateTime",
            "G": str(uuid.UUID(int=i * 7919)), "G@odata.type": "Edm.Guid",
            "Bin": "AAEC/w==", "Bin@odata.type": "Edm.Binary",
            "Big": "x" * (i * 37 % 500)}
def batch(table, ops):
    b, c = "batch_fixture", "changeset_fixture"
    lines = ["--" + b, "Content-Type: multipart/mixed; boundary=" + c, ""]
    for i, (method, path, body, extra) in enumerate(ops):
        lines += ["--" + c, "Content-Type: application/http", "Content-Transfer-Encoding: binary", "",
                  "%s %s/%s HTTP/1.1" % (method, base, path), "Accept: application/json;odata=nometadata",
                  "Content-Type: application/json", "DataServiceVersion: 3.0"]
        for k, v in (extra or {}).items():
            lines.append("%s: %s" % (k, v))
        lines += ["", json.dumps(body) if body is not None else ""]
    lines += ["--" + c + "--", "--" + b + "--", ""]
    out = req("POST", "/$batch", "\r\n".join(lines).encode(), {"Content-Type": "multipart/mixed; boundary=" + b})
    assert b"HTTP/1.1 4" not in out and b"HTTP/1.1 5" not in out, out
if phase == "before":
    for t in ("Types", "Batches", "Gone"):
        req("POST", "/Tables", {"TableName": t})
    for i in range(60):
        req("POST", "/Types", ent("p%d" % (i % 4), "r%03d" % i, i))
    for i in range(0, 60, 5):  # merges and replaces
        req("MERGE", "/Types(PartitionKey='p%d',RowKey='r%03d')" % (i % 4, i), {"Merged": i, "S": "merged"}, {"If-Match": "*"})
    for i in range(1, 60, 7):
        req("PUT", "/Types(PartitionKey='p%d',RowKey='r%03d')" % (i % 4, i), {"OnlyThis": "replaced %d" % i})
    for i in range(2, 60, 9):
        req("DELETE", "/Types(PartitionKey='p%d',RowKey='r%03d')" % (i % 4, i), extra={"If-Match": "*"})
    for n in range(8):
        batch("Batches", [("POST", "Batches", ent("b%d" % n, "r%02d" % k, n * 10 + k), None) for k in range(10)])
    batch("Batches", [("DELETE", "Batches(PartitionKey='b1',RowKey='r0%d')" % k, None, {"If-Match": "*"}) for k in range(5)]
                     + [("MERGE", "Batches(PartitionKey='b1',RowKey='r0%d')" % k, {"M": k}, {"If-Match": "*"}) for k in range(5, 10)])
    acl = ('<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>fixture</Id>'
           '<AccessPolicy><Start>2026-01-01T00:00:00.0000000Z</Start><Expiry>2027-01-01T00:00:00.0000000Z</Expiry>'
           '<Permission>raud</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>').encode()
    import base64, hmac, hashlib, email.utils
    date = email.utils.formatdate(usegmt=True)
    key = base64.b64decode("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==")
    sts = "PUT\n\napplication/xml\n%s\n/devstoreaccount1/devstoreaccount1/Types?comp=acl" % date
    sig = base64.b64encode(hmac.new(key, sts.encode(), hashlib.sha256).digest()).decode()
    req("PUT", "/Types?comp=acl", acl, {"Content-Type": "application/xml", "x-ms-date": date, "Authorization": "SharedKey devstoreaccount1:" + sig})
    req("DELETE", "/Tables('Gone')")
else:
    req("POST", "/Tables", {"TableName": "Tail"})
    for i in range(5):
        req("POST", "/Tail", ent("t", "r%d" % i, 100 + i))
    req("MERGE", "/Types(PartitionKey='p0',RowKey='r000')", {"AfterCompaction": True}, {"If-Match": "*"})
    req("DELETE", "/Types(PartitionKey='p1',RowKey='r001')", extra={"If-Match": "*"})
    batch("Batches", [("POST", "Batches", ent("b2", "t%d" % k, 200 + k), None) for k in range(3)]
                     + [("DELETE", "Batches(PartitionKey='b2',RowKey='r0%d')" % k, None, {"If-Match": "*"}) for k in range(2)])
print("ok", phase)
