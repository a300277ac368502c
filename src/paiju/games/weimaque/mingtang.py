"""名堂: the named bonuses of a win.  Each is one small pattern with one signature, looped over a registry.

A pattern counts how often it applies to a :class:`WinContext` (0 = not at all; 印 and 多红 can apply several
times); its value per count comes from the selected value table.  ``mult`` patterns multiply (the largest
that applies is taken: 乌对 > 对子胡 > 乌胡 > 点胡), ``add`` patterns add; within one ``family`` only the
largest counts (the 卓 family, and 纯印 replacing 印胡).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .cards import IS_RED, NUM_KINDS, Card
from .config import WeimaqueConfig
from .groups import TRIPLE_KINDS, Group, MingtangHit, Win, xi_lines


@dataclass(frozen=True)
class WinContext:
    """Everything a 名堂 may look at: the groups, the winning card and where it sits, and the situation."""

    groups: tuple[Group, ...]
    win_index: int
    win_card: Card
    counts: tuple[int, ...]
    reds: int
    tuanyuan: tuple[Card, ...]
    zhuo_tuanyuan: tuple[Card, ...]
    """The 团圆 the 卓 family counts: those not taken by a 八碰头 or 假八碰头 (``bapengtou_zhuo="replace"``, the
    default), or all of them (``"stack"``)."""
    hard_xi: int
    hand_before: int
    last_card: bool
    own_draw: bool
    config: WeimaqueConfig

    @property
    def pair_kind(self) -> Card:
        return next(cs[0] for kind, cs in self.groups if kind == "pair")

    @property
    def win_group(self) -> Group:
        return self.groups[self.win_index]


@dataclass(frozen=True)
class Mingtang:
    key: str
    zh: str
    en: str
    kind: str  # "mult" or "add"
    family: str
    count: Callable[[WinContext], int]


def _adjacent(a: Card, b: Card) -> bool:
    return b == a + 1 and a // 10 == b // 10


def _longest_chain(kinds: tuple[Card, ...]) -> int:
    best = run = 0
    prev = -5
    for k in kinds:
        run = run + 1 if _adjacent(prev, k) else 1
        prev = k
        best = max(best, run)
    return best


def _red_tuanyuan(ctx: WinContext) -> int:
    return sum(1 for k in ctx.tuanyuan if IS_RED[k])


def _yin(ctx: WinContext) -> int:
    return _red_tuanyuan(ctx)


def _chun_yin(ctx: WinContext) -> int:
    n = _red_tuanyuan(ctx)
    return n if n and ctx.reds == 4 * n else 0


def _duo_hong(ctx: WinContext) -> int:
    return max(0, ctx.reds - 9)


def _no_runs(ctx: WinContext) -> bool:
    return all(kind != "chi" for kind, _ in ctx.groups)


def _duizi(ctx: WinContext) -> int:
    return int(_no_runs(ctx))


def _wu_dui(ctx: WinContext) -> int:
    return int(_no_runs(ctx) and ctx.reds == 0)


def _wu_hu(ctx: WinContext) -> int:
    return int(ctx.reds == 0)


def _dian_hu(ctx: WinContext) -> int:
    return int(ctx.reds == 1)


def _man_yuan_hua(ctx: WinContext) -> int:
    return int(all(any(IS_RED[c] for c in cs) for _, cs in ctx.groups))


def _one_size(ctx: WinContext) -> int:
    big = sum(ctx.counts[10:])
    return int(big == 0 or big == sum(ctx.counts))


def _zhuo(ctx: WinContext) -> int:
    return int(len(ctx.zhuo_tuanyuan) >= 2)


def _zimei(ctx: WinContext) -> int:
    return int(_longest_chain(ctx.zhuo_tuanyuan) >= 2)


def _san_luan(ctx: WinContext) -> int:
    return int(len(ctx.zhuo_tuanyuan) >= 3)


def _zimei_tuo(ctx: WinContext) -> int:
    return int(len(ctx.zhuo_tuanyuan) >= 3 and _longest_chain(ctx.zhuo_tuanyuan) >= 2)


def _zusun(ctx: WinContext) -> int:
    return int(_longest_chain(ctx.zhuo_tuanyuan) >= 3)


def _zusun_tuo(ctx: WinContext) -> int:
    return int(len(ctx.zhuo_tuanyuan) >= 4 and _longest_chain(ctx.zhuo_tuanyuan) >= 3)


def _haidi(ctx: WinContext) -> int:
    return int(ctx.last_card)


def _dandiao(ctx: WinContext) -> int:
    if ctx.config.dandiao == "last_card":
        return int(ctx.hand_before == 1)
    return int(ctx.win_group[0] == "pair")


def _twins(tuanyuan: tuple[Card, ...]) -> list[Card]:
    """Small kinds 团圆 in both sizes (八 and 捌, or 三 and 叁): sorted."""
    return [k for k in tuanyuan if k < 10 and k + 10 in tuanyuan]


def _ba_peng_tou(ctx: WinContext) -> int:
    return int(7 in _twins(ctx.tuanyuan))


def _jia_ba_peng_tou(ctx: WinContext) -> int:
    return int(any(k != 7 for k in _twins(ctx.tuanyuan)))


def _duidao(ctx: WinContext) -> Card | None:
    """对倒: the winning card turned a held pair into the triple, and another held pair is the 麻雀."""
    kind, _ = ctx.win_group
    if kind not in ("peng", "wei") or ctx.win_group[1][0] != ctx.win_card:
        return None
    return ctx.pair_kind


def _bei_kao_bei(ctx: WinContext) -> int:
    p = _duidao(ctx)
    return int(p is not None and p % 10 == ctx.win_card % 10 and p != ctx.win_card)


def _shou_qian_shou(ctx: WinContext) -> int:
    p = _duidao(ctx)
    return int(p is not None and (_adjacent(p, ctx.win_card) or _adjacent(ctx.win_card, p)))


REGISTRY: tuple[Mingtang, ...] = (
    Mingtang("yin_hu", "印胡", "seal (a red reunion)", "add", "yin", _yin),
    Mingtang("chun_yin", "纯印", "pure seal", "add", "yin", _chun_yin),
    Mingtang("duo_hong", "多红", "many reds", "add", "duo_hong", _duo_hong),
    Mingtang("duizi_hu", "对子胡", "all triples", "mult", "mult", _duizi),
    Mingtang("wu_dui", "乌对", "black all triples", "mult", "mult", _wu_dui),
    Mingtang("wu_hu", "乌胡", "no red", "mult", "mult", _wu_hu),
    Mingtang("dian_hu", "点胡", "one red", "mult", "mult", _dian_hu),
    Mingtang("man_yuan_hua", "满园花", "red in every group", "add", "man_yuan_hua", _man_yuan_hua),
    Mingtang("da_xiao_zi_hu", "大/小字胡", "one size only", "add", "da_xiao_zi_hu", _one_size),
    Mingtang("zhuo_hu", "卓胡", "two reunions", "add", "zhuo", _zhuo),
    Mingtang("zimei_zhuo", "姊妹卓", "two adjacent reunions", "add", "zhuo", _zimei),
    Mingtang("san_luan_zhuo", "三乱卓", "three reunions", "add", "zhuo", _san_luan),
    Mingtang("zimei_zhuo_tuo", "姊妹卓带拖", "two adjacent reunions and one more", "add", "zhuo", _zimei_tuo),
    Mingtang("zusun_zhuo", "祖孙卓", "three adjacent reunions", "add", "zhuo", _zusun),
    Mingtang("zusun_zhuo_tuo", "祖孙卓带拖", "three adjacent reunions and one more", "add", "zhuo", _zusun_tuo),
    Mingtang("haidi_hu", "海底胡", "won on the last card", "add", "haidi_hu", _haidi),
    Mingtang("dan_diao", "单吊", "single wait", "add", "dan_diao", _dandiao),
    Mingtang("ba_peng_tou", "八碰头", "small and big eights both reunions", "add", "ba_peng_tou", _ba_peng_tou),
    Mingtang("jia_ba_peng_tou", "假八碰头", "one number a reunion in both sizes", "add", "jia_ba_peng_tou",
             _jia_ba_peng_tou),
    Mingtang("bei_kao_bei", "背靠背", "two-pair wait on one number, small and big", "add", "duidao", _bei_kao_bei),
    Mingtang("shou_qian_shou", "手牵手", "two-pair wait on adjacent numbers", "add", "duidao", _shou_qian_shou),
)
BY_KEY = {m.key: m for m in REGISTRY}

# Values per table.  "page": the rule page (手牵手 from config.shouqianshou).  "lao": the 老名堂版 of a
# commercial client of this game (only its eight old 名堂; the others are off).
TABLES: dict[str, dict[str, int]] = {
    "page": {
        "yin_hu": 10, "chun_yin": 100, "duo_hong": 10, "duizi_hu": 6, "wu_dui": 8, "wu_hu": 4, "dian_hu": 3,
        "man_yuan_hua": 50, "da_xiao_zi_hu": 100, "zhuo_hu": 20, "zimei_zhuo": 40, "san_luan_zhuo": 60,
        "zimei_zhuo_tuo": 80, "zusun_zhuo": 150, "zusun_zhuo_tuo": 300, "haidi_hu": 10, "dan_diao": 20,
        "ba_peng_tou": 200, "jia_ba_peng_tou": 100, "bei_kao_bei": 20, "shou_qian_shou": 20,
    },
    "lao": {
        "yin_hu": 10, "chun_yin": 0, "duo_hong": 10, "duizi_hu": 4, "wu_dui": 6, "wu_hu": 3, "dian_hu": 2,
        "man_yuan_hua": 50, "da_xiao_zi_hu": 50, "zhuo_hu": 0, "zimei_zhuo": 0, "san_luan_zhuo": 0,
        "zimei_zhuo_tuo": 0, "zusun_zhuo": 0, "zusun_zhuo_tuo": 0, "haidi_hu": 0, "dan_diao": 0,
        "ba_peng_tou": 0, "jia_ba_peng_tou": 0, "bei_kao_bei": 0, "shou_qian_shou": 0,
    },
}


def value_of(key: str, config: WeimaqueConfig) -> int:
    if key == "shou_qian_shou" and config.mingtang_table == "page":
        return config.shouqianshou
    return TABLES[config.mingtang_table][key]


def context(groups: tuple[Group, ...], win_index: int, win_card: Card, *, hard: int, hand_before: int,
            last_card: bool, own_draw: bool, config: WeimaqueConfig) -> WinContext:
    counts = [0] * NUM_KINDS
    for _, cs in groups:
        for c in cs:
            counts[c] += 1
    reds = sum(n for k, n in enumerate(counts) if IS_RED[k])
    tuanyuan = tuple(sorted(cs[0] for kind, cs in groups if kind in TRIPLE_KINDS and counts[cs[0]] == 4))
    return WinContext(groups, win_index, win_card, tuple(counts), reds, tuanyuan, zhuo_tuanyuan(tuanyuan, config),
                      hard, hand_before, last_card, own_draw, config)


def zhuo_tuanyuan(tuanyuan: tuple[Card, ...], config: WeimaqueConfig) -> tuple[Card, ...]:
    """The 团圆 the 卓 family counts.  By default (``bapengtou_zhuo="replace"``, as 姊妹卓 replaces 卓胡) the two
    团圆 a 八碰头 scores on, and those of the one 假八碰头 scored (the lowest number), count for no 卓; with
    ``"stack"`` all of them do (八碰头 and 卓胡 stack).

    >>> stack = WeimaqueConfig(bapengtou_zhuo="stack")
    >>> zhuo_tuanyuan((2, 7, 17), stack), zhuo_tuanyuan((2, 7, 17), WeimaqueConfig())
    ((2, 7, 17), (2,))
    >>> zhuo_tuanyuan((2, 4, 12, 14), WeimaqueConfig())  # 假八碰头 counts once: 三/叁 is taken, 五/伍 may still 卓
    (4, 14)
    """
    twins = _twins(tuanyuan)
    if config.bapengtou_zhuo == "stack" or not twins:
        return tuanyuan
    taken: set[Card] = set()
    if 7 in twins and value_of("ba_peng_tou", config):
        taken |= {7, 17}
    fake = [k for k in twins if k != 7]
    if fake and value_of("jia_ba_peng_tou", config):
        taken |= {fake[0], fake[0] + 10}
    return tuple(k for k in tuanyuan if k not in taken)


def hits(ctx: WinContext) -> list[MingtangHit]:
    """Every 名堂 that applies with its value, before families are resolved."""
    out = []
    for m in REGISTRY:
        n = m.count(ctx)
        if not n:
            continue
        v = value_of(m.key, ctx.config)
        if not v:
            continue
        out.append(MingtangHit(m.key, m.zh, m.en, m.kind, v if m.kind == "mult" else v * n, n))
    return out


def resolve(found: list[MingtangHit]) -> list[MingtangHit]:
    """Keep the largest 名堂 of each family; different families all count."""
    best: dict[str, MingtangHit] = {}
    for h in found:
        fam = BY_KEY[h.key].family
        if fam not in best or h.value > best[fam].value:
            best[fam] = h
    return [h for h in found if best[BY_KEY[h.key].family] is h]


def score_win(groups: tuple[Group, ...], win_index: int, win_card: Card, *, hand_before: int, last_card: bool,
              own_draw: bool, config: WeimaqueConfig) -> Win | None:
    """Score one split of a winning hand; None when its 硬息 is under the minimum."""
    lines = tuple(xi_lines(groups))
    hard = sum(line.xi for line in lines)
    if hard < config.min_hard_xi:
        return None
    ctx = context(groups, win_index, win_card, hard=hard, hand_before=hand_before, last_card=last_card,
                  own_draw=own_draw, config=config)
    chosen = resolve(hits(ctx))
    mult = max((h.value for h in chosen if h.kind == "mult"), default=1)
    adds = sum(h.value for h in chosen if h.kind == "add")
    total = hard * mult + adds if config.multiplier_scope == "hard" else (hard + adds) * mult
    return Win(groups, win_index, win_card, lines, hard, tuple(chosen), mult, adds, total)
