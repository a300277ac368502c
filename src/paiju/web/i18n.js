// Interface strings in Chinese (the default) and English, and the language switch.
// Game text never lives here: the server sends it as {zh, en} pairs, drawn with `tx`.

const STRINGS = {
  zh: {
    app: "牌局",
    tagline: "四种地方牌戏，人和机器人同桌",
    lang_switch: "English",
    nickname_title: "取个昵称",
    nickname_hint: "同桌的人会看到这个名字。",
    nickname_placeholder: "昵称",
    enter: "进入",
    change_name: "改名",
    lobby: "大厅",
    games: "游戏",
    seats_range: "{min}–{max} 人",
    seats_exact: "{n} 人",
    open_tables: "开放的牌桌",
    no_tables: "还没有开放的牌桌，建一张吧。",
    refresh: "刷新",
    create_table: "开桌",
    create: "创建牌桌",
    rule_options: "规则选项",
    defaults_hint: " · 默认即规则原文，可展开修改",
    windows: "决策时限",
    turn_seconds: "出牌时限（秒）",
    claim_seconds: "抢牌时限（秒）",
    private_table: "私人牌桌（凭邀请链接入座）",
    defaults: "恢复默认",
    table: "牌桌",
    join: "进入",
    watch: "旁观",
    status_waiting: "等人",
    status_playing: "进行中",
    status_finished: "已结束",
    seat_n: "{n} 号位",
    empty_seat: "空位",
    sit: "坐下",
    leave: "离座",
    leave_game_hint: "离开这局：机器人替你打完",
    leave_game_confirm: "离开这局？机器人会替你打完，离桌会被记录。",
    remove_bot: "请走机器人",
    move_here: "换到这里",
    fill_bots: "空位加机器人",
    start: "开始",
    need_full: "坐满才能开始",
    invite_link: "邀请链接",
    copy: "复制",
    copied: "已复制",
    bot: "机器人",
    bot_n: "机器人{n}",
    you: "你",
    offline: "掉线",
    back_to_lobby: "回大厅",
    waiting_room: "等待开局",
    cards_count: "{n} 张",
    total: "总分",
    your_turn: "轮到你",
    waiting_for: "等待 {names}",
    waiting_others: "等待其他人决定",
    seconds_left: "还剩 {s} 秒",
    select_hint: "点手牌选择 {min}–{max} 张，再按确定",
    select_hint_exact: "点手牌选择 {n} 张，再按确定",
    selected_n: "已选 {n} 张",
    send: "确定",
    clear: "清除",
    hint: "提示",
    tap_to_play: "点手牌直接出",
    last_result: "上局结果",
    result: "本局结果",
    match_over: "终局",
    continue: "继续",
    close: "关闭",
    item: "项目",
    scores: "得分",
    totals: "累计",
    log: "记录",
    connecting: "连接中…",
    reconnecting: "连接断开，正在重连…",
    connected: "已连接",
    spectating: "你在旁观",
    not_found: "找不到这张牌桌",
    need_invite: "这是私人牌桌：请用邀请链接进入。",
    err_illegal: "不合规则",
    err_not_your_turn: "还没轮到你",
    err_game_over: "这局已经结束",
    err_bad_message: "消息有误",
    err_not_seated: "你没有坐在这张桌",
    err_network: "网络错误",
    err_generic: "出错了",
    seat_short: "{n}号",
    hand: "手牌",
    groups: "明牌",
    discards: "弃牌",
    yes: "是",
    no: "否",
    game_n_tables: "{n} 桌",
    options_json_hint: "JSON 列表",
    keyboard_help: "键盘：数字键按动作，回车确定，Esc 清除",
  },
  en: {
    app: "paiju",
    tagline: "Four regional Chinese card games; people and bots at one table",
    lang_switch: "中文",
    nickname_title: "Pick a nickname",
    nickname_hint: "The others at your table will see it.",
    nickname_placeholder: "nickname",
    enter: "Enter",
    change_name: "Rename",
    lobby: "Lobby",
    games: "Games",
    seats_range: "{min}–{max} players",
    seats_exact: "{n} players",
    open_tables: "Open tables",
    no_tables: "No open tables yet: create one.",
    refresh: "Refresh",
    create_table: "New table",
    create: "Create table",
    rule_options: "Rule options",
    defaults_hint: " · defaults follow the rule page; open to change",
    windows: "Decision windows",
    turn_seconds: "Turn window (s)",
    claim_seconds: "Claim window (s)",
    private_table: "Private table (seats by invite link)",
    defaults: "Defaults",
    table: "Table",
    join: "Open",
    watch: "Watch",
    status_waiting: "waiting",
    status_playing: "playing",
    status_finished: "finished",
    seat_n: "Seat {n}",
    empty_seat: "empty",
    sit: "Sit",
    leave: "Leave",
    leave_game_hint: "Leave the game: a bot finishes it for you",
    leave_game_confirm: "Leave this game? A bot plays your seat to the end, and the departure is recorded.",
    remove_bot: "Remove the bot",
    move_here: "Move here",
    fill_bots: "Fill with bots",
    start: "Start",
    need_full: "Every seat must be taken to start",
    invite_link: "Invite link",
    copy: "Copy",
    copied: "Copied",
    bot: "bot",
    bot_n: "bot {n}",
    you: "you",
    offline: "offline",
    back_to_lobby: "Lobby",
    waiting_room: "Waiting to start",
    cards_count: "{n} cards",
    total: "Total",
    your_turn: "Your turn",
    waiting_for: "Waiting for {names}",
    waiting_others: "Waiting for the others",
    seconds_left: "{s} s left",
    select_hint: "Tap {min}–{max} cards in your hand, then confirm",
    select_hint_exact: "Tap {n} cards in your hand, then confirm",
    selected_n: "{n} selected",
    send: "Confirm",
    clear: "Clear",
    hint: "Hint",
    tap_to_play: "Tap a card to play it",
    last_result: "Last hand",
    result: "Hand result",
    match_over: "Match over",
    continue: "Continue",
    close: "Close",
    item: "Item",
    scores: "Score",
    totals: "Totals",
    log: "Log",
    connecting: "Connecting…",
    reconnecting: "Connection lost, reconnecting…",
    connected: "Connected",
    spectating: "You are watching",
    not_found: "No such table",
    need_invite: "This table is private: open it with its invite link.",
    err_illegal: "Not allowed",
    err_not_your_turn: "Not your turn",
    err_game_over: "The game is over",
    err_bad_message: "Bad message",
    err_not_seated: "You have no seat at this table",
    err_network: "Network error",
    err_generic: "Error",
    seat_short: "S{n}",
    hand: "Hand",
    groups: "Shown",
    discards: "Discards",
    yes: "yes",
    no: "no",
    game_n_tables: "{n} tables",
    options_json_hint: "JSON list",
    keyboard_help: "Keys: digits press actions, Enter confirms, Esc clears",
  },
};

// Common select verbs, for the confirm button; unknown verbs show as sent.
const VERBS = {
  zh: { play: "出牌", bury: "扣底", discard: "打出", lead: "出牌", pass: "过", show: "亮牌", split: "分牌",
        bid: "叫牌", declare: "亮主", throw: "甩牌" },
  en: { play: "play", bury: "bury", discard: "discard", lead: "lead", pass: "pass", show: "show", split: "split",
        bid: "bid", declare: "declare", throw: "throw" },
};

// Common event types, for the log; a game's own types show as sent.
const EVENTS = {
  zh: { discard: "打出", draw: "摸牌", play: "出牌", pass: "过", peng: "碰", pung: "碰", kong: "杠", gang: "杠",
        chi: "吃", chow: "吃", hu: "胡", win: "胡", bid: "叫主", trump: "定主", trick: "一墩", bury: "扣底",
        kitty_taken: "拿底", deal: "发牌", hand_start: "开局", settle: "结算", settlement: "结算",
        arranged: "摆好牌", decided: "做了决定", drink: "喝", split: "分牌" },
  en: {},
};

const KEY = "paiju.lang";
const listeners = new Set();

function initialLang() {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved === "zh" || saved === "en") return saved;
  } catch { /* storage may be blocked: fall back to Chinese */ }
  return "zh";
}

let current = initialLang();

export function lang() {
  return current;
}

export function setLang(next) {
  if (next !== "zh" && next !== "en") return;
  current = next;
  try { localStorage.setItem(KEY, next); } catch { /* not remembered, still switched */ }
  document.documentElement.lang = next === "zh" ? "zh-CN" : "en";
  for (const fn of listeners) fn(next);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** An interface string, with {name} placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const table = STRINGS[current] || STRINGS.zh;
  const text = table[key] ?? STRINGS.zh[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/** A {zh, en} pair from the server in the current language (plain strings pass through). */
export function tx(pair) {
  if (pair == null) return "";
  if (typeof pair === "string") return pair;
  return pair[current] ?? pair.zh ?? pair.en ?? "";
}

export function eventLabel(type) {
  return (EVENTS[current] && EVENTS[current][type]) || String(type).replace(/_/g, " ");
}

export function verbLabel(verb) {
  return (VERBS[current] && VERBS[current][verb]) || verb;
}

document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
