-- wrk script for `npm run test:resilience`: newsletter signups, each with an address of its own,
-- from client addresses 10.<block + thread - 1>.x.y that each sign up `perAddress` times (under
-- FORM_RATE_LIMIT). Each connection's first request is held for `holdMs`, as in home.lua.
-- Arguments (after `--`): prefix, origin, perAddress, block, holdMs, perThread. Writes what it
-- saw to $RESILIENCE_WRK_OUT.
local threads = {}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  prefix = args[1]
  origin = args[2]
  perAddress = tonumber(args[3])
  block = tonumber(args[4])
  holdMs = tonumber(args[5])
  perThread = tonumber(args[6])
  scheduled = 0
  sent = 0
  answered = 0
  statuses = {}
  ok = {}
end

function delay()
  scheduled = scheduled + 1
  if scheduled <= perThread then return holdMs end
  return 0
end

function request()
  sent = sent + 1
  local id = prefix .. "-" .. tid .. "-" .. sent
  local client = math.floor((sent - 1) / perAddress)
  local address = string.format("10.%d.%d.%d", (block + tid - 1) % 256, math.floor(client / 256) % 256, client % 256)
  local body = "email=" .. id .. "%40example.org&returnTo=%2F%3Fe%3D" .. id
  return wrk.format("POST", "/newsletter", {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Origin"] = origin,
    ["X-Forwarded-For"] = address,
  }, body)
end

-- The 303's Location carries the returnTo path, so each answer names the address it stored.
function response(status, headers, body)
  answered = answered + 1
  statuses[status] = (statuses[status] or 0) + 1
  if status == 303 then
    local location = headers["location"] or headers["Location"] or ""
    local id = string.match(location, "e=([%w%-]+)")
    if id then ok[#ok + 1] = id end
  end
end

function done(summary, latency, requests)
  local out = assert(io.open(os.getenv("RESILIENCE_WRK_OUT"), "w"))
  for _, thread in ipairs(threads) do
    local tid = thread:get("tid")
    out:write("sent ", tid, " ", thread:get("sent"), "\n")
    out:write("answered ", tid, " ", thread:get("answered"), "\n")
    for status, n in pairs(thread:get("statuses")) do
      out:write("status ", status, " ", n, "\n")
    end
    for _, id in ipairs(thread:get("ok")) do
      out:write("ok ", id, "\n")
    end
  end
  out:close()
end
