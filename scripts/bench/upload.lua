-- wrk script for the multipart upload case of scripts/bench/run.
--
--   wrk -t2 -c32 -d5s --latency -s upload.lua URL -- FILE [PART [FILENAME [CONTENT_TYPE]]]
--
-- Builds one multipart/form-data body from FILE (read once per wrk thread, in init) and sends
-- it as a POST on every request. Extra headers given to wrk with -H are kept.

local function read_all(path)
   local file = assert(io.open(path, "rb"))
   local data = file:read("*a")
   file:close()
   return data
end

function init(args)
   local path = assert(args[1], "upload.lua needs the file to upload: -- FILE")
   local part = args[2] or "image"
   local filename = args[3] or "bench.jpg"
   local content_type = args[4] or "image/jpeg"
   -- Random file bytes make an accidental match of this boundary practically impossible.
   local boundary = "mockapi-bench-7d4c2f9a1e6b3085"

   wrk.method = "POST"
   wrk.headers["Content-Type"] = "multipart/form-data; boundary=" .. boundary
   wrk.body = table.concat({
      "--", boundary, "\r\n",
      'Content-Disposition: form-data; name="', part, '"; filename="', filename, '"\r\n',
      "Content-Type: ", content_type, "\r\n",
      "\r\n",
      read_all(path), "\r\n",
      "--", boundary, "--\r\n",
   })
end
