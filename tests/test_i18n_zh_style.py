"""The Chinese catalogs read as Chinese: full-width punctuation, one term per concept, the game
names and place names players know, and the localized command names wherever a command is named."""

from __future__ import annotations

import re

import pytest

from i18n import catalog

ZH = ("zh-TW", "zh-CN")
#: Han, kana, CJK and full-width punctuation, and placeholder braces (a placeholder between two
#: Chinese words is part of a Chinese sentence: "{name}：{count}").
_CJK_SIDE = re.compile(r"[\u2e80-\u2fff\u3000-\u303f\u3400-\u9fff\uff00-\uffef{}]")
_HAN = re.compile(r"[\u3400-\u9fff]")
_ASCII_PUNCT = ",:;!?()"


def _ascii_punct_next_to_cjk(text: str) -> list[str]:
    if not _HAN.search(text):
        return []  # an all-ASCII value (a command usage, a URL) keeps ASCII punctuation
    found = []
    for i, ch in enumerate(text):
        if ch not in _ASCII_PUNCT:
            continue
        before, after = text[i - 1:i], text[i + 1:i + 2]
        if _CJK_SIDE.match(before or " ") or _CJK_SIDE.match(after or " "):
            found.append(text[max(0, i - 8):i + 8])
    return found


def test_checker_catches_ascii_punctuation() -> None:
    assert _ascii_punct_next_to_cjk("抱歉,發生了錯誤(對局 {match})")
    assert _ascii_punct_next_to_cjk("{name}:{count} 個")
    assert not _ascii_punct_next_to_cjk("抱歉，發生了錯誤（對局 {match}）。見 https://x.y/a?b=1")
    assert not _ascii_punct_next_to_cjk("/match status [match]")


@pytest.mark.parametrize("locale", ZH)
def test_zh_punctuation_is_full_width(locale: str) -> None:
    bad = {key: hits for key, text in catalog(locale).items() if (hits := _ascii_punct_next_to_cjk(text))}
    assert not bad, f"ASCII punctuation next to Chinese in {locale}: {bad}"


#: concept -> (the term, synonyms that must not appear). One word per concept, so a player who
#: learns a word in one message finds it again in the next.
BANNED: dict[str, dict[str, list[str]]] = {
    "zh-TW": {
        "回合": ["輪次", "回目"],
        "勝者": ["獲勝者", "贏家", "勝利者", "優勝者"],
        "攻擊": ["進攻", "攻打"],
        "兌換卡牌": ["交換卡牌", "交換卡", "換牌"],
        "電腦": ["AI", "人工智慧", "機器玩家"],
        "五方連塊": ["骨牌", "棋子", "方塊"],
        "圓形標記": ["圓片", "圓盤", "圓點", "棋片"],
        "戰國風雲": ["Risk", "RISK", "大戰役", "征服世界"],
        "萬用卡": ["百搭", "萬能卡"],
    },
    "zh-CN": {
        "回合": ["轮次", "回目"],
        "胜者": ["获胜者", "赢家", "胜利者", "优胜者"],
        "攻击": ["进攻", "攻打"],
        "兑换卡牌": ["交换卡牌", "交换卡", "换牌"],
        "电脑": ["AI", "人工智能", "机器玩家"],
        "五方连块": ["骨牌", "棋子", "方块"],
        "圆形标记": ["圆片", "圆盘", "圆点", "棋片"],
        "战国风云": ["Risk", "RISK", "大战役", "征服世界"],
        "万能卡": ["百搭", "万用卡"],
        # zh-CN place names (the seed's zh-TW transliterations differ).
        "斯堪的纳维亚": ["斯堪的那维亚"],
        "雅库茨克": ["雅库次克"],
        "伊尔库茨克": ["伊尔库次克"],
        "乌拉尔": ['"乌拉"'],
    },
}


@pytest.mark.parametrize("locale", ZH)
def test_one_term_per_concept(locale: str) -> None:
    values = catalog(locale)
    problems = []
    for term, banned in BANNED[locale].items():
        assert any(term in v for v in values.values()), f"{term} unused in {locale}"
        for word in banned:
            if word.startswith('"'):
                hits = [k for k, v in values.items() if f'"{v}"' == word]
            else:
                hits = [k for k, v in values.items() if word in v]
            problems += [f"{k}: {word} (use {term})" for k in hits]
    assert not problems, problems


def test_zh_cn_place_names() -> None:
    cn = catalog("zh-CN")
    assert cn["risk.territory.scandinavia"] == "斯堪的纳维亚"
    assert cn["risk.territory.yakutsk"] == "雅库茨克"
    assert cn["risk.territory.irkutsk"] == "伊尔库茨克"
    assert cn["risk.territory.ural"] == "乌拉尔"
    assert cn["risk.card.wild"] == "万能卡"
