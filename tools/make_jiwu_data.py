"""Writes the 极武三国 content: ``data/jiwu/board.json``, ``data/jiwu/cards.json`` and the name
catalogs ``data/i18n/<locale>/jiwu_names.toml``.

The seed gives the rules and the component counts, not the board or the card texts; this table
is the design (see ``docs/rules/jiwu.md`` for the reasoning and the self-play figures). Keeping the
design in one script keeps the three languages of every name next to each other; the JSON it writes
is what the game loads and validates (``engines/jiwu/data.py``). Run::

    .venv/bin/python tools/make_jiwu_data.py
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# --------------------------------------------------------------------------- board
# id, zh-CN, zh-TW, en, section (C centre, W west, E east), slots, 功勋 at the end, X slots, start,
# 城池卡 功勋 per turn (0 = no 城池卡)
REGIONS = [
    ("luoyang", "洛阳", "洛陽", "Luoyang", "C", 5, 5, 2, False, 1),
    ("changan", "长安", "長安", "Chang'an", "C", 4, 4, 2, False, 1),
    ("xuchang", "许昌", "許昌", "Xuchang", "C", 4, 4, 2, False, 1),
    ("yecheng", "邺城", "鄴城", "Ye", "C", 4, 4, 2, False, 1),
    ("xiangyang", "襄阳", "襄陽", "Xiangyang", "C", 4, 3, 2, False, 1),
    ("wancheng", "宛城", "宛城", "Wancheng", "C", 3, 2, 1, False, 0),
    ("chenliu", "陈留", "陳留", "Chenliu", "C", 3, 2, 0, False, 0),
    ("guandu", "官渡", "官渡", "Guandu", "C", 2, 2, 1, False, 0),
    ("xiapi", "下邳", "下邳", "Xiapi", "C", 3, 3, 1, False, 0),
    ("runan", "汝南", "汝南", "Runan", "C", 3, 1, 0, True, 0),
    ("beihai", "北海", "北海", "Beihai", "C", 3, 1, 0, True, 0),
    ("shouchun", "寿春", "壽春", "Shouchun", "C", 3, 2, 1, False, 0),
    ("jiangling", "江陵", "江陵", "Jiangling", "C", 3, 3, 1, False, 0),
    ("changsha", "长沙", "長沙", "Changsha", "C", 3, 2, 0, False, 0),
    ("chengdu", "成都", "成都", "Chengdu", "W", 5, 4, 2, False, 1),
    ("hanzhong", "汉中", "漢中", "Hanzhong", "W", 3, 3, 1, False, 0),
    ("tianshui", "天水", "天水", "Tianshui", "W", 3, 1, 0, True, 0),
    ("wuwei", "武威", "武威", "Wuwei", "W", 2, 2, 1, False, 0),
    ("nanzhong", "南中", "南中", "Nanzhong", "W", 3, 1, 0, True, 0),
    ("yongan", "永安", "永安", "Yong'an", "W", 2, 2, 1, False, 0),
    ("jianye", "建业", "建業", "Jianye", "E", 5, 4, 2, False, 1),
    ("wujun", "吴郡", "吳郡", "Wu", "E", 3, 2, 1, False, 0),
    ("kuaiji", "会稽", "會稽", "Kuaiji", "E", 3, 1, 0, True, 0),
    ("chaisang", "柴桑", "柴桑", "Chaisang", "E", 3, 2, 1, False, 0),
    ("lujiang", "庐江", "廬江", "Lujiang", "E", 3, 1, 0, True, 0),
    ("hefei", "合肥", "合肥", "Hefei", "E", 2, 3, 1, False, 0),
]

# region a, region b, path slots, X (neutral) path slots
PATHS = [
    ("luoyang", "changan", 2, 0), ("luoyang", "xuchang", 1, 0), ("luoyang", "yecheng", 2, 1),
    ("luoyang", "wancheng", 1, 0), ("luoyang", "chenliu", 1, 0), ("changan", "wancheng", 2, 0),
    ("xuchang", "chenliu", 1, 0), ("xuchang", "runan", 1, 0), ("xuchang", "wancheng", 1, 0),
    ("xuchang", "guandu", 1, 0), ("chenliu", "guandu", 0, 0), ("guandu", "yecheng", 1, 0),
    ("yecheng", "beihai", 2, 0), ("beihai", "xiapi", 1, 0), ("guandu", "xiapi", 2, 0),
    ("xiapi", "shouchun", 1, 0), ("runan", "shouchun", 1, 0), ("runan", "xiangyang", 3, 0),
    ("beihai", "guandu", 2, 0), ("kuaiji", "jianye", 2, 0), ("lujiang", "shouchun", 2, 0),
    ("wancheng", "xiangyang", 1, 0), ("xiangyang", "jiangling", 1, 0), ("jiangling", "changsha", 1, 0),
    ("changan", "tianshui", 2, 0), ("tianshui", "wuwei", 1, 0), ("changan", "hanzhong", 2, 1),
    ("hanzhong", "chengdu", 2, 0), ("tianshui", "hanzhong", 1, 0), ("chengdu", "nanzhong", 1, 0),
    ("chengdu", "yongan", 2, 0), ("yongan", "jiangling", 2, 0), ("nanzhong", "changsha", 3, 0),
    ("hanzhong", "xiangyang", 3, 0), ("shouchun", "hefei", 1, 0), ("hefei", "lujiang", 1, 0),
    ("lujiang", "chaisang", 1, 0), ("chaisang", "changsha", 2, 0), ("chaisang", "jianye", 2, 0),
    ("hefei", "jianye", 2, 1), ("jianye", "wujun", 1, 0), ("wujun", "kuaiji", 1, 0),
    ("kuaiji", "chaisang", 2, 0), ("xiapi", "jianye", 3, 0),
]

#: section -> the player counts in which it is closed (the dashed areas): the west closes for
#: 2 and 3 players, the east for 2.
CLOSED = {"C": [], "W": [2, 3], "E": [2]}

# --------------------------------------------------------------------------- cards
# Effects are lists of ops (engines/jiwu/data.py lists the vocabulary).
P = lambda n: {"op": "power", "n": n}  # noqa: E731
G = lambda n: {"op": "gold", "n": n}  # noqa: E731
DRAW = lambda n: {"op": "draw", "n": n}  # noqa: E731
DEPLOY = lambda n: {"op": "deploy", "n": n}  # noqa: E731
KILL = {"op": "kill"}
SPY = {"op": "spy"}
SUPPLANT = {"op": "supplant"}
PROMOTE = {"op": "promote", "from": "played"}
PROMOTE_DISCARD = {"op": "promote", "from": "discard"}
TRASH = {"op": "trash", "from": "own"}
TRASH_MARKET = {"op": "trash", "from": "market"}
OUTCAST = {"op": "outcast"}
PLAN = {"op": "plan"}


def LINK(aspect: str, *then: dict) -> dict:  # noqa: N802
    return {"op": "link", "aspect": aspect, "then": list(then)}


def CHOOSE(*options: list[dict]) -> dict:  # noqa: N802
    return {"op": "choose", "of": [list(o) for o in options]}


def RECALL(*then: dict) -> dict:  # noqa: N802
    return {"op": "recall", "then": list(then)}


def GAIN(pile: str) -> dict:  # noqa: N802
    return {"op": "gain", "pile": pile}


def GAIN_MARKET(most: int) -> dict:  # noqa: N802
    return {"op": "gain_market", "max": most}


# id, zh-CN, zh-TW, en, aspect, cost, copies, effects
MARKET = [
    # 勇武 wu: fighting for the board
    ("gongnu", "弓弩手", "弓弩手", "Crossbowmen", "wu", 2, 3, [P(1), DEPLOY(1)]),
    ("xianzhen", "陷阵营", "陷陣營", "Trap Breakers", "wu", 3, 3, [P(2), LINK("wu", P(1))]),
    ("cike", "刺客", "刺客", "Assassin", "wu", 4, 2, [KILL]),
    ("hubao", "虎豹骑", "虎豹騎", "Tiger Cavalry", "wu", 5, 2, [P(3), LINK("wu", KILL)]),
    ("xiandeng", "先登死士", "先登死士", "Wall Stormers", "wu", 4, 2, [CHOOSE([P(3)], [DEPLOY(2)])]),
    ("daji", "大戟士", "大戟士", "Halberdiers", "wu", 6, 2, [P(2), KILL]),
    ("baima", "白马义从", "白馬義從", "White Horse Riders", "wu", 7, 2, [DEPLOY(3), LINK("wu", KILL)]),
    # 智谋 zhi: draw, spies, stratagems (every 智谋 play also draws one 计策)
    ("chihou", "斥候营", "斥候營", "Scout Camp", "zhi", 2, 3, [G(1), SPY]),
    ("muliao", "幕僚", "幕僚", "Adviser", "zhi", 3, 3, [G(1), DRAW(1)]),
    ("shuike", "说客", "說客", "Envoy", "zhi", 4, 2, [SUPPLANT]),
    ("xizuo", "细作", "細作", "Agent", "zhi", 4, 2, [SPY, LINK("zhi", DRAW(1))]),
    ("jijiu", "军师祭酒", "軍師祭酒", "Chief Strategist", "zhi", 5, 2, [DRAW(2)]),
    ("jiandie", "间谍网", "間諜網", "Spy Ring", "zhi", 6, 2, [SPY, SPY, G(1)]),
    ("lijian", "离间", "離間", "Sow Discord", "zhi", 5, 2, [RECALL(SUPPLANT), G(2)]),
    ("jinnang", "锦囊", "錦囊", "Silk Pouch", "zhi", 3, 2, [G(2), LINK("zhi", PLAN)]),
    # 统御 tong: promotion and silver
    ("zhubu", "主簿", "主簿", "Registrar", "tong", 2, 3, [G(1), PROMOTE]),
    ("taishou", "太守", "太守", "Governor", "tong", 3, 3, [G(2), LINK("tong", G(1))]),
    ("xiaowei", "校尉", "校尉", "Commandant", "tong", 4, 2, [P(2), PROMOTE]),
    ("cishi", "刺史", "刺史", "Inspector", "tong", 5, 2, [G(3), PROMOTE_DISCARD]),
    ("dasinong", "大司农", "大司農", "Grand Treasurer", "tong", 4, 2, [G(3)]),
    ("shangshu", "尚书令", "尚書令", "Chancellor of Writs", "tong", 6, 2, [G(2), PROMOTE, LINK("tong", G(1))]),
    ("silixiaowei", "司隶校尉", "司隸校尉", "Capital Commandant", "tong", 7, 2, [DEPLOY(2), PROMOTE]),
    ("chengxiang", "丞相府", "丞相府", "Chancellery", "tong", 8, 2, [G(2), PROMOTE, PROMOTE]),
    # 奇兵 qi: trimming decks, outcasts, gains
    ("liumin", "流民", "流民", "Refugees", "qi", 1, 3, [G(1), TRASH]),
    ("shanzei", "山贼", "山賊", "Bandits", "qi", 2, 3, [P(1), OUTCAST]),
    ("shangdui", "商队", "商隊", "Caravan", "qi", 3, 2, [G(1), GAIN("jiangnan")]),
    ("tiejiang", "铁匠铺", "鐵匠鋪", "Smithy", "qi", 4, 2, [P(1), GAIN("tieqi")]),
    ("huangjin", "黄巾余党", "黃巾餘黨", "Yellow Turban Remnants", "qi", 4, 2, [P(2), TRASH_MARKET]),
    ("qixi", "奇袭", "奇襲", "Surprise Raid", "qi", 5, 2, [CHOOSE([P(3)], [G(3)])]),
    ("huogong", "火攻", "火攻", "Fire Attack", "qi", 6, 2, [KILL, OUTCAST]),
    ("tunbing", "屯兵", "屯兵", "Garrison Camp", "qi", 5, 2, [GAIN_MARKET(4), LINK("qi", G(1))]),
]

# Generals: id, zh-CN, zh-TW, en, aspect, cost, effects, 武力值, duel skill, 武技 (id, zh-CN, zh-TW, en, effects)
# A duel skill: on "atk" / "par" / "brk" (that move chosen) or "adv" (holding the advantage), adds
# "dice" and/or blocks "block" damage that round.
GENERALS = [
    ("guanyu", "关羽", "關羽", "Guan Yu", "wu", 7, [P(2)], 5, {"on": "atk", "dice": 1, "block": 0},
     ("qinglong", "青龙偃月", "青龍偃月", "Green Dragon Blade", [P(3)])),
    ("zhangfei", "张飞", "張飛", "Zhang Fei", "wu", 6, [P(2)], 4, {"on": "adv", "dice": 1, "block": 0},
     ("paoxiao", "咆哮", "咆哮", "Roar", [P(2), LINK("wu", P(2))])),
    ("lvbu", "吕布", "呂布", "Lü Bu", "wu", 8, [P(3)], 6, {"on": "atk", "dice": 1, "block": 0},
     ("wushuang", "无双", "無雙", "Peerless", [KILL])),
    ("zhaoyun", "赵云", "趙雲", "Zhao Yun", "wu", 6, [P(1), DEPLOY(1)], 4, {"on": "par", "dice": 0, "block": 1},
     ("longdan", "龙胆", "龍膽", "Dragon Heart", [P(1), DEPLOY(2)])),
    ("zhugeliang", "诸葛亮", "諸葛亮", "Zhuge Liang", "zhi", 8, [DRAW(1), G(1)], 4,
     {"on": "brk", "dice": 1, "block": 0}, ("bazhen", "八阵", "八陣", "Eight Formations", [DRAW(2)])),
    ("simayi", "司马懿", "司馬懿", "Sima Yi", "zhi", 7, [SPY, G(1)], 4, {"on": "par", "dice": 1, "block": 0},
     ("yingshi", "鹰视", "鷹視", "Hawk's Gaze", [SPY, DRAW(1)])),
    ("caocao", "曹操", "曹操", "Cao Cao", "tong", 8, [G(2), PROMOTE], 5, {"on": "adv", "dice": 0, "block": 1},
     ("jianxiong", "奸雄", "奸雄", "Villainous Hero", [G(2), PROMOTE])),
    ("sunquan", "孙权", "孫權", "Sun Quan", "tong", 6, [G(3)], 4, {"on": "brk", "dice": 0, "block": 1},
     ("zhiheng", "制衡", "制衡", "Balance of Power", [DRAW(1), TRASH])),
    ("zhouyu", "周瑜", "周瑜", "Zhou Yu", "qi", 7, [G(2), LINK("qi", KILL)], 4, {"on": "brk", "dice": 1, "block": 0},
     ("huoji", "火计", "火計", "Fire Stratagem", [G(2), LINK("qi", KILL)])),
    ("liubei", "刘备", "劉備", "Liu Bei", "qi", 6, [G(2), DEPLOY(1)], 4, {"on": "adv", "dice": 1, "block": 0},
     ("rende", "仁德", "仁德", "Benevolence", [G(3)])),
]

STARTERS = [
    ("nongfu", "勤恳农夫", "勤懇農夫", "Diligent Farmer", [G(1)], 7),
    ("bubing", "骁勇步兵", "驍勇步兵", "Valiant Infantry", [P(1)], 3),
]
SUPPLY = [
    ("jiangnan", "江南游商", "江南遊商", "Jiangnan Merchant", 2, [G(2)], 15),
    ("tieqi", "铁骑精锐", "鐵騎精銳", "Elite Iron Cavalry", 3, [P(2)], 15),
    ("canbing", "残兵败将", "殘兵敗將", "Stragglers", 0, [], 20),
]
# 计策: id, zh-CN, zh-TW, en, effects (2 copies each)
PLANS = [
    ("caochuan", "草船借箭", "草船借箭", "Borrowing Arrows", [P(2)]),
    ("dongfeng", "借东风", "借東風", "Borrowing the East Wind", [G(2)]),
    ("chencang", "暗度陈仓", "暗度陳倉", "Secret Crossing", [DEPLOY(2)]),
    ("weiwei", "围魏救赵", "圍魏救趙", "Besiege Wei to Save Zhao", [KILL]),
    ("fanjian", "反间计", "反間計", "Turncoat Ruse", [SUPPLANT]),
    ("kurou", "苦肉计", "苦肉計", "Self-Injury Ruse", [DRAW(2)]),
    ("kongcheng", "空城计", "空城計", "Empty Fort", [SPY]),
    ("lianhuan", "连环计", "連環計", "Chained Ships", [PROMOTE_DISCARD]),
    ("meiren", "美人计", "美人計", "Beauty Trap", [TRASH]),
    ("diaohu", "调虎离山", "調虎離山", "Lure the Tiger", [P(1), G(1)]),
]
# 决斗 moves: id, zh-CN, zh-TW, en, the move it beats
DUEL = [
    ("atk", "猛攻", "猛攻", "Onslaught", "brk"),
    ("par", "招架", "招架", "Parry", "atk"),
    ("brk", "破招", "破招", "Counter", "par"),
]
ASPECTS = [("wu", "勇武", "勇武", "Valour"), ("zhi", "智谋", "智謀", "Cunning"),
           ("tong", "统御", "統御", "Command"), ("qi", "奇兵", "奇兵", "Ambush")]


def build() -> tuple[dict, dict, dict[str, dict[str, dict[str, str]]]]:
    names: dict[str, dict[str, dict[str, str]]] = {loc: {"region": {}, "card": {}, "aspect": {}, "duel": {}}
                                                   for loc in ("zh-CN", "zh-TW", "en")}

    def name(section: str, key: str, cn: str, tw: str, en: str) -> None:
        names["zh-CN"][section][key], names["zh-TW"][section][key], names["en"][section][key] = cn, tw, en

    regions = []
    for rid, cn, tw, en, sec, slots, vp, x, start, city in REGIONS:
        name("region", rid, cn, tw, en)
        regions.append({"id": rid, "section": sec, "slots": slots, "vp": vp, "neutral": x,
                        "start": start, "city": city})
    paths = [{"id": f"p{i:02d}", "a": a, "b": b, "slots": n, "neutral": x}
             for i, (a, b, n, x) in enumerate(PATHS, 1)]
    board = {"regions": regions, "paths": paths, "closed": CLOSED}

    cards = []
    for cid, cn, tw, en, aspect, cost, copies, eff in MARKET:
        name("card", cid, cn, tw, en)
        cards.append({"id": cid, "kind": "market", "aspect": aspect, "cost": cost, "copies": copies,
                      "effects": eff})
    for gid, cn, tw, en, aspect, cost, eff, force, skill, (aid, acn, atw, aen, aeff) in GENERALS:
        name("card", gid, cn, tw, en)
        name("card", aid, acn, atw, aen)
        cards.append({"id": gid, "kind": "market", "aspect": aspect, "cost": cost, "copies": 1,
                      "effects": eff, "general": {"force": force, "skill": skill, "art": aid}})
        cards.append({"id": aid, "kind": "art", "aspect": aspect, "cost": 0, "copies": 1, "effects": aeff})
    for sid, cn, tw, en, eff, copies in STARTERS:
        name("card", sid, cn, tw, en)
        cards.append({"id": sid, "kind": "start", "aspect": "", "cost": 0, "copies": copies, "effects": eff})
    for sid, cn, tw, en, cost, eff, copies in SUPPLY:
        name("card", sid, cn, tw, en)
        cards.append({"id": sid, "kind": "supply", "aspect": "", "cost": cost, "copies": copies, "effects": eff})
    for pid, cn, tw, en, eff in PLANS:
        name("card", pid, cn, tw, en)
        cards.append({"id": pid, "kind": "plan", "aspect": "", "cost": 0, "copies": 2, "effects": eff})
    for did, cn, tw, en, _beats in DUEL:
        name("duel", did, cn, tw, en)
    for aid, cn, tw, en in ASPECTS:
        name("aspect", aid, cn, tw, en)
    duel = {"moves": [{"id": d, "beats": b} for d, _, _, _, b in DUEL], "cards": 6}
    return board, {"cards": cards, "duel": duel}, names


def _toml(tables: dict[str, dict[str, str]], header: str) -> str:
    out = [header, ""]
    for section, entries in tables.items():
        out.append(f"[{section}]")
        for key, value in entries.items():
            out.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
        out.append("")
    return "\n".join(out)


def main() -> None:
    board, cards, names = build()
    data = ROOT / "data" / "jiwu"
    data.mkdir(parents=True, exist_ok=True)
    (data / "board.json").write_text(json.dumps(board, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (data / "cards.json").write_text(json.dumps(cards, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for loc, tables in names.items():
        path = ROOT / "data" / "i18n" / loc / "jiwu_names.toml"
        path.write_text(_toml(tables, "# 极武三国 names, written by tools/make_jiwu_data.py (edit there)."),
                        encoding="utf-8")


if __name__ == "__main__":
    main()
