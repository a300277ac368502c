"""The Lua scripts a worker runs in Redis, each one atomic: taking a table over, the room-wide rate limits,
the websockets per address, sharing a dead worker's tables, and letting a lock go."""

CLAIM = """
local cur = redis.call('GET', KEYS[1])
if cur then
  if cur == ARGV[1] then return 1 end
  if redis.call('EXISTS', ARGV[2] .. 'hb:' .. cur) == 1 then return 0 end
  redis.call('SREM', ARGV[2] .. 'tables:' .. cur, ARGV[3])
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[3])
return 1
"""
"""Take a table whose owner has no lease (or none): one worker wins, and it is listed under it."""

LIMIT = """
if ARGV[1] == 'clear' then
  for _, k in ipairs(KEYS) do redis.call('DEL', k) end
  return 0
end
if ARGV[1] == 'release' then
  for _, k in ipairs(KEYS) do redis.call('ZREM', k, ARGV[3]) end
  return 0
end
local now = tonumber(ARGV[2])
local wait = 0
if ARGV[1] ~= 'hit' then
  for i, k in ipairs(KEYS) do
    local limit, win = tonumber(ARGV[2 + 2 * i]), tonumber(ARGV[3 + 2 * i])
    redis.call('ZREMRANGEBYSCORE', k, '-inf', now - win)
    local n = redis.call('ZCARD', k)
    if n >= limit then
      local oldest = redis.call('ZRANGE', k, n - limit, n - limit, 'WITHSCORES')
      wait = math.max(wait, tonumber(oldest[2]) + win - now, 1)
    end
  end
  if wait > 0 then return wait end
end
if ARGV[1] ~= 'check' then
  for i, k in ipairs(KEYS) do
    redis.call('ZADD', k, now, ARGV[3])
    redis.call('PEXPIRE', k, tonumber(ARGV[3 + 2 * i]))
  end
end
return 0
"""
"""limits.Shared in one step for every key: the milliseconds to wait (the hit is then not counted), or 0;
``release`` takes back the hit named ARGV[3] (a reserved password check whose password was right)."""

SOCKETS = """
local others = 0
local parts = redis.call('HGETALL', KEYS[1])
for i = 1, #parts, 2 do
  local w = parts[i]
  if w ~= ARGV[1] then
    if redis.call('EXISTS', ARGV[2] .. 'hb:' .. w) == 1 then
      others = others + tonumber(parts[i + 1])
    else
      redis.call('HDEL', KEYS[1], w)
    end
  end
end
local mine = tonumber(ARGV[3])
local ok = 1
if ARGV[4] ~= '' and others + mine > tonumber(ARGV[4]) then
  ok = 0
  mine = mine - 1
end
if mine > 0 then
  redis.call('HSET', KEYS[1], ARGV[1], mine)
  redis.call('SADD', KEYS[2], KEYS[1])
else
  redis.call('HDEL', KEYS[1], ARGV[1])
  if redis.call('HLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], KEYS[1]) end
end
return ok
"""
"""Open websockets of one address: each worker's own count is a field (``{p}:sock:{address}``, listed in
``{p}:socks:{worker}``), written whole each time, so a lost write is mended by the next; the fields of
workers without a lease do not count and are dropped.  With a limit: 1 if ours (with the new one) fits, else
0 and ours stays as it was."""

SHARE = """
if redis.call('EXISTS', ARGV[2] .. 'hb:' .. ARGV[3]) == 1 then return {0, 0} end
local left = redis.call('SCARD', KEYS[1])
if left == 0 then
  redis.call('DEL', KEYS[2], KEYS[3])
  return {0, 0}
end
local first = 0
if redis.call('EXISTS', KEYS[2]) == 0 then
  first = 1
  redis.call('HSET', KEYS[2], '#n', left)
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[6]))
  redis.call('SET', KEYS[3], 1, 'PX', tonumber(ARGV[5]))
end
local quota = left
local grace = redis.call('PTTL', KEYS[3])
if grace > 0 then
  local n = tonumber(redis.call('HGET', KEYS[2], '#n'))
  local taken = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
  quota = math.min(left, math.ceil(n / tonumber(ARGV[4])) - taken)
else
  grace = 0
end
local won = {first, grace}
if quota <= 0 then return won end
for _, tid in ipairs(redis.call('SPOP', KEYS[1], quota)) do
  local own = ARGV[2] .. 'own:' .. tid
  local cur = redis.call('GET', own)
  if not cur or cur == ARGV[3] or cur == ARGV[1] or redis.call('EXISTS', ARGV[2] .. 'hb:' .. cur) == 0 then
    redis.call('SET', own, ARGV[1])
    redis.call('SADD', ARGV[2] .. 'tables:' .. ARGV[1], tid)
    table.insert(won, tid)
  end
end
redis.call('HINCRBY', KEYS[2], ARGV[1], #won - 2)
return won
"""
"""A dead worker's tables shared by the live ones: while the grace (``{p}:grace:{dead}``, started by the first
to notice) runs, each takes at most ceil(its tables / live workers); after it, anyone takes what is left.
Taken here, as CLAIM does (owner and list), so no table is given twice: {first to notice, grace left (ms),
the tables now ours...}."""


REVOKE = """
local n = redis.call('PUBSUB', 'NUMSUB', ARGV[1])
if tonumber(n[2]) == 0 and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
"""
"""End the lease of a worker nobody listens for (its inbox has no subscriber: a killed process's connections
close at once), checked and ended in one step, so a worker that subscribed again meanwhile keeps it."""


UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
"""Let a lock go only if it is still ours (it may have run out and been taken by another worker)."""

