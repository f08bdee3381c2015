-- wrk script: send the requests listed in a file, one per line, tab-separated:
--   METHOD  PATH  BEARER-TOKEN (or -)  JSON-BODY (or -)  IF-NONE-MATCH (or -)
-- Usage: wrk ... -s bench/requests.lua URL -- FILE THREADS
-- Thread n of THREADS takes lines n, n + THREADS, ... and cycles through them.
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

local requests = {}
local index = 0

function init(args)
  local file, threads = args[1], tonumber(args[2])
  local number = 0
  for line in io.lines(file) do
    if number % threads == id then
      local method, path, token, body, etag =
        line:match("^(%S+)\t(%S+)\t(%S+)\t([^\t]*)\t(%S+)$")
      local headers = { ["Content-Type"] = "application/json" }
      if token ~= "-" then headers["Authorization"] = "Bearer " .. token end
      if etag ~= "-" then headers["If-None-Match"] = etag end
      if body == "-" then body = nil end
      requests[#requests + 1] = wrk.format(method, path, headers, body)
    end
    number = number + 1
  end
end

function request()
  index = index % #requests + 1
  return requests[index]
end
