-- wrk script for `npm run test:resilience`: GET / as wrk does by default, except that each
-- connection's first request is held for `holdMs` (the first `perThread` requests of a thread are
-- the first of its connections), so that the server accepts every connection before the load
-- starts. Arguments (after `--`): holdMs, perThread.
function init(args)
  holdMs = tonumber(args[1])
  perThread = tonumber(args[2])
  scheduled = 0
end

function delay()
  scheduled = scheduled + 1
  if scheduled <= perThread then return holdMs end
  return 0
end
