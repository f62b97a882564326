#!/usr/bin/env python3
"""Writes mobile-capture.har: a hand-made capture of a crowdfunding app's API (66 routes) with
the habits real traffic has: pages reached by absolute next links to which the app appends its
default keys again (per_page twice), an export polled until done, a login and a signup on one
path told apart by "intent", a path with "//", multipart uploads, web links on the API's host,
a 404 for an id that is gone. Run it again after editing; the tests read the .har file."""
import json, os

HOST = "https://api.example.com"
UA = "Backer/5.2.0 (iPhone; iOS 17.5; Scale/3.00)"
entries = []


def headers(auth=True, extra=()):
    out = [{"name": "User-Agent", "value": UA}, {"name": "Accept", "value": "application/json"},
           {"name": "X-Client-Version", "value": "5.2.0"}]
    if auth:
        out.append({"name": "Authorization", "value": "token 5f1b2c3d4e"})
    return out + list(extra)


def add(method, path, status, body=None, *, query="", json_body=None, multipart=None, auth=True, mime="application/json"):
    url = HOST + path + ("?" + query if query else "")
    request = {"method": method, "url": url, "httpVersion": "HTTP/1.1", "cookies": [], "headers": headers(auth),
               "queryString": [{"name": k, "value": v} for k, v in (p.split("=", 1) for p in query.split("&") if p)],
               "headersSize": -1, "bodySize": 0}
    if json_body is not None:
        text = json.dumps(json_body, separators=(",", ":"))
        request["headers"].append({"name": "Content-Type", "value": "application/json"})
        request["postData"] = {"mimeType": "application/json", "text": text}
        request["bodySize"] = len(text)
    if multipart is not None:
        boundary = "Boundary-7MA4YWxkTrZu0gW"
        text = ""
        for name, filename, ctype, value in multipart:
            text += f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\""
            text += f"; filename=\"{filename}\"\r\n" if filename else "\r\n"
            text += f"Content-Type: {ctype}\r\n" if ctype else ""
            text += f"\r\n{value}\r\n"
        text += f"--{boundary}--\r\n"
        mime_type = f"multipart/form-data; boundary={boundary}"
        request["headers"].append({"name": "Content-Type", "value": mime_type})
        request["postData"] = {"mimeType": mime_type, "text": text, "params": [
            dict({"name": n, "value": v}, **({"fileName": f} if f else {}), **({"contentType": c} if c else {}))
            for n, f, c, v in multipart]}
        request["bodySize"] = len(text)
    content = {"size": 0, "mimeType": mime}
    if body is not None:
        text = body if isinstance(body, str) else json.dumps(body, separators=(",", ":"))
        content = {"size": len(text), "mimeType": mime, "text": text}
    response = {"status": status, "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [],
                "headers": [{"name": "Content-Type", "value": mime}] if body is not None else [],
                "content": content, "redirectURL": "", "headersSize": -1, "bodySize": content["size"]}
    entries.append({"startedDateTime": "2026-11-20T09:%02d:%02d.000Z" % (len(entries) // 60, len(entries) % 60),
                    "time": 42.0, "request": request, "response": response, "cache": {},
                    "timings": {"send": 0.1, "wait": 40.0, "receive": 1.9}})


def user(i):
    return {"id": i, "name": f"User {i}", "avatar": {"small": f"https://images.example-cdn.net/avatars/{i}.jpg"},
            "urls": {"web": f"{HOST}/profile/{i}", "api": f"{HOST}/v1/users/{i}"}}


def project(i, name):
    return {"id": i, "name": name, "goal": 5000.0, "pledged": 1234.5, "state": "live", "creator": user(100 + i),
            "urls": {"web": {"project": f"{HOST}/projects/{i}/web"}, "api": {"project": f"{HOST}/v1/projects/{i}"}},
            "photo": {"full": f"https://images.example-cdn.net/projects/{i}.jpg"}}


# Auth: a login and a signup share one path, told apart by "intent".
add("PUT", "/v1/auth/access_token", 200, {"access_token": "5f1b2c3d4e", "user": user(1)}, auth=False,
    json_body={"intent": "login", "email": "ada@example.com", "password": "hunter22"})
add("PUT", "/v1/auth/access_token", 201, {"access_token": "9a8b7c6d5e", "user": user(2), "new": True}, auth=False,
    json_body={"intent": "signup", "email": "bob@example.com", "password": "hunter33", "name": "Bob", "newsletter": True})
add("POST", "/v1/auth/password_reset", 204, auth=False, json_body={"email": "ada@example.com"})
add("DELETE", "/v1/auth/access_token", 204)

# The signed-in user, and the app's double slash.
add("GET", "/v1/users/self", 200, user(1))
add("PATCH", "/v1/users/self", 200, dict(user(1), name="Ada L."), json_body={"name": "Ada L."})
add("GET", "/v1/users//self/queue_export_data", 200, {"queued": True, "status_url": f"{HOST}/v1/exports/77"})
add("POST", "/v1/users/self/avatar", 200, {"avatar": {"small": "https://images.example-cdn.net/avatars/1-new.jpg"}},
    multipart=[("image", "avatar.jpg", "image/jpeg", "JFIF-fake-avatar-bytes-0123456789"), ("crop", None, None, "0,0,400,400")])
add("GET", "/v1/users/self/notifications/settings", 200, {"email": True, "push": {"comments": True, "updates": False}})
add("PUT", "/v1/users/self/notifications/settings", 200, {"email": False, "push": {"comments": True, "updates": False}},
    json_body={"email": False})

# An export, polled until it is done.
add("POST", "/v1/exports", 202, {"id": 77, "status": "queued", "url": f"{HOST}/v1/exports/77"}, json_body={"kind": "backings"})
for state in ["running", "running", "done"]:
    body = {"id": 77, "status": state}
    if state == "done":
        body["download_url"] = f"{HOST}/v1/exports/77/download"
    add("GET", "/v1/exports/77", 200, body)
add("GET", "/v1/exports/77/download", 200, "id,project,amount\n1,42,25.00\n2,43,10.00\n", mime="text/csv")

# Projects: pages by absolute next links, to which the app appends per_page=20 again.
add("GET", "/v1/projects", 200, {"projects": [project(42, "Ink"), project(43, "Loom")],
                                  "urls": {"api": {"more_projects": f"{HOST}/v1/projects?page=2&per_page=20"}}},
    query="page=1&per_page=20")
add("GET", "/v1/projects", 200, {"projects": [project(44, "Kiln")], "urls": {"api": {"more_projects": None}}},
    query="page=2&per_page=20&per_page=20")
add("GET", "/v1/projects/42", 200, project(42, "Ink"))
add("GET", "/v1/projects/43", 200, project(43, "Loom"))
add("GET", "/v1/projects/999", 404, {"error_messages": ["This project has been removed."], "http_code": 404})
add("POST", "/v1/projects/42/star", 200, {"project": {"id": 42, "is_starred": True}})
add("DELETE", "/v1/projects/42/star", 200, {"project": {"id": 42, "is_starred": False}})
add("GET", "/v1/projects/42/comments", 200, {"comments": [{"id": 1, "body": "Lovely", "author": user(3)}],
                                             "urls": {"api": {"more_comments": f"{HOST}/v1/projects/42/comments?cursor=c2"}}})
add("GET", "/v1/projects/42/comments", 200, {"comments": [{"id": 2, "body": "When?", "author": user(4)}],
                                             "urls": {"api": {"more_comments": None}}}, query="cursor=c2")
add("POST", "/v1/projects/42/comments", 201, {"id": 3, "body": "Backed!", "author": user(1)}, json_body={"body": "Backed!"})
add("GET", "/v1/projects/42/rewards", 200, {"rewards": [{"id": 9001, "minimum": 10.0}, {"id": 9002, "minimum": 25.0}]})
add("GET", "/v1/projects/42/rewards/9002", 200, {"id": 9002, "minimum": 25.0, "shipping": {"enabled": True}})
add("GET", "/v1/projects/42/updates", 200, {"updates": [{"id": 5, "title": "Shipping soon", "web_url": f"{HOST}/projects/42/posts/5"}]})
add("GET", "/v1/projects/42/updates/5", 200, {"id": 5, "title": "Shipping soon", "body": "<p>Boxes are packed.</p>"})
add("GET", "/v1/projects/42/updates/draft", 200, {"id": 6, "title": "", "body": "", "images": []})
add("PUT", "/v1/projects/42/updates/draft", 200, {"id": 6, "title": "Week 3", "body": "Hi", "images": []},
    json_body={"title": "Week 3", "body": "Hi", "public": True})
add("POST", "/v1/projects/42/updates/draft/images", 200, {"id": 61, "thumb": "https://images.example-cdn.net/drafts/61.jpg"},
    multipart=[("image", "cover.jpg", "image/jpeg", "JFIF-fake-cover-bytes-abcdef")])
add("DELETE", "/v1/projects/42/updates/draft/images/61", 204)
add("POST", "/v1/projects/42/updates/draft/video", 202, {"status": "processing"},
    multipart=[("video", "clip.mov", "video/quicktime", "moov-fake-video-bytes"), ("caption", None, None, "Packing day")])
add("POST", "/v1/projects/42/updates/draft/publish", 200, {"id": 6, "published_at": 1795340000})
add("GET", "/v1/projects/42/backers/2001", 200, {"id": 2001, "amount": 25.0, "reward_id": 9002, "status": "pledged"})
add("PUT", "/v1/projects/42/backers/2001", 200, {"id": 2001, "amount": 45.0, "reward_id": 9002, "status": "pledged"},
    json_body={"amount": 45.0, "reward_id": 9002})
add("DELETE", "/v1/projects/42/backers/2001", 200, {"id": 2001, "status": "canceled"})
add("GET", "/v1/projects/42/friends", 200, {"users": [user(5)]})
add("GET", "/v1/projects/42/faqs", 200, {"faqs": [{"question": "Ships?", "answer": "Yes"}]})
add("POST", "/v1/projects/42/reports", 201, {"id": 12}, json_body={"reason": "spam", "details": "copies another project"})

# Browsing.
add("GET", "/v1/categories", 200, {"categories": [{"id": 1, "name": "Art", "url": f"{HOST}/v1/categories/1"}]})
add("GET", "/v1/categories/1", 200, {"id": 1, "name": "Art", "projects_url": f"{HOST}/v1/discover?category_id=1"})
add("GET", "/v1/discover", 200, {"projects": [project(45, "Quill")],
                                 "urls": {"api": {"more_projects": f"{HOST}/v1/discover?category_id=1&page=2&sort=magic"}}},
    query="category_id=1&sort=magic")
add("GET", "/v1/discover", 200, {"projects": [project(46, "Press")], "urls": {"api": {"more_projects": None}}},
    query="category_id=1&page=2&sort=magic&sort=magic")
add("GET", "/v1/search", 200, {"projects": [project(42, "Ink")], "users": []}, query="q=ink&types%5B%5D=project&types%5B%5D=user")
add("GET", "/v1/locations", 200, {"locations": [{"id": 2459115, "name": "New York"}]}, query="q=new")
add("GET", "/v1/locations/2459115", 200, {"id": 2459115, "name": "New York", "country": "US"})
add("GET", "/v1/activities", 200, {"activities": [{"id": 1, "category": "launch", "project_url": f"{HOST}/v1/projects/42"}],
                                   "urls": {"api": {"more_activities": f"{HOST}/v1/activities?cursor=a2&count=20"}}},
    query="count=20")
add("GET", "/v1/activities", 200, {"activities": [], "urls": {"api": {"more_activities": None}}}, query="cursor=a2&count=20&count=20")

# Other people, messages, backings, settings.
add("GET", "/v1/users/5", 200, user(5))
add("GET", "/v1/users/5/projects", 200, {"projects": [project(47, "Reel")]})
add("POST", "/v1/users/5/follow", 200, {"following": True})
add("DELETE", "/v1/users/5/follow", 200, {"following": False})
add("GET", "/v1/users/self/backings", 200, {"backings": [{"id": 2001, "project_id": 42}]}, query="status=pledged")
add("GET", "/v1/users/self/starred_projects", 200, {"projects": [project(42, "Ink")]})
add("GET", "/v1/message_threads", 200, {"message_threads": [{"id": 301, "unread": 1}]}, query="mailbox=inbox")
add("GET", "/v1/message_threads/301/messages", 200, {"messages": [{"id": 3011, "body": "Thanks!"}]})
add("POST", "/v1/message_threads/301/messages", 201, {"id": 3012, "body": "You're welcome"}, json_body={"body": "You're welcome"})
add("PUT", "/v1/message_threads/301/read", 204)
add("GET", "/v1/notifications", 200, {"notifications": [{"id": 401, "kind": "comment"}]})
add("PUT", "/v1/notifications/401/read", 204)
add("POST", "/v1/devices", 201, {"id": 501}, json_body={"token": "apns-0a1b2c", "platform": "ios"})
add("DELETE", "/v1/devices/501", 204)
add("GET", "/v1/config", 200, {"features": {"live_stream": True}, "help_url": f"{HOST}/help", "terms_url": "https://www.example.org/terms"},
    auth=False)
add("GET", "/v1/surveys/81", 200, {"id": 81, "questions": [{"id": 1, "text": "Size?"}]})
add("POST", "/v1/surveys/81/answers", 201, {"id": 811}, json_body={"answers": [{"question_id": 1, "value": "M"}]})
add("GET", "/v1/checkouts/601", 200, {"id": 601, "state": "successful"})
add("POST", "/v1/payment_sources", 201, {"id": "card_1", "last_four": "4242"}, json_body={"token": "tok_visa", "reusable": True})
add("GET", "/v1/payment_sources", 200, {"payment_sources": [{"id": "card_1", "last_four": "4242"}]})
add("DELETE", "/v1/payment_sources/card_1", 204)
add("GET", "/v1/help/faq.html", 200, f"<html><body><a href=\"{HOST}/help/contact\">Contact</a></body></html>", mime="text/html")

har = {"log": {"version": "1.2", "creator": {"name": "hand-written for mockapi's tests", "version": "1"}, "entries": entries}}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mobile-capture.har")
with open(path, "w") as out:
    json.dump(har, out, indent=1)
routes = {(e["request"]["method"], e["request"]["url"].split("?")[0]) for e in entries}
print(f"{path}: {len(entries)} entries")
