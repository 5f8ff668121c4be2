package tenhou6

import (
	"fmt"
	"strconv"

	"github.com/mentalmj/mentalmj/record/mjlog"
)

// YakuNames are Tenhou's Japanese yaku names by yaku id (0..54), as the
// tenhou.net/6 result lists them.
var YakuNames = [...]string{
	"門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚", "平和", "断幺九", "一盃口",
	"自風 東", "自風 南", "自風 西", "自風 北", "場風 東", "場風 南", "場風 西", "場風 北",
	"役牌 白", "役牌 發", "役牌 中",
	"両立直", "七対子", "混全帯幺九", "一気通貫", "三色同順", "三色同刻", "三槓子", "対々和", "三暗刻", "小三元", "混老頭",
	"二盃口", "純全帯幺九", "混一色", "清一色", "人和",
	"天和", "地和", "大三元", "四暗刻", "四暗刻単騎", "字一色", "緑一色", "清老頭", "九蓮宝燈", "純正九蓮宝燈",
	"国士無双", "国士無双１３面", "大四喜", "小四喜", "四槓子",
	"ドラ", "裏ドラ", "赤ドラ",
}

// limitNames are the score names of AGARI ten= limit 1..5.
var limitNames = [...]string{"", "満貫", "跳満", "倍満", "三倍満", "役満"}

// limitBase is the basic points of each limit (yakuman: per yakuman).
var limitBase = [...]int{0, 2000, 3000, 4000, 6000, 8000}

func yakuName(id int) (string, error) {
	if id < 0 || id >= len(YakuNames) {
		return "", fmt.Errorf("yaku id %d outside 0..%d", id, len(YakuNames)-1)
	}
	return YakuNames[id], nil
}

// agariDetail returns [who, from, pao, score string, yaku strings…] of one
// win; oya is the dealer's seat.
func agariDetail(a mjlog.Agari, oya int) ([]any, error) {
	pao := a.Who
	if a.Paowho >= 0 {
		pao = a.Paowho
	}
	han := 0
	var yaku []any
	for _, y := range a.Yaku {
		han += y.Han
		if y.Han == 0 {
			continue // ura dora at 0 han (riichi without ura)
		}
		name, err := yakuName(y.ID)
		if err != nil {
			return nil, err
		}
		yaku = append(yaku, name+"("+strconv.Itoa(y.Han)+"飜)")
	}
	for _, id := range a.Yakuman {
		name, err := yakuName(id)
		if err != nil {
			return nil, err
		}
		yaku = append(yaku, name+"(役満)")
	}
	limit := a.Limit
	if limit == 0 && a.Fu<<(han+2) >= 1920 && (a.Ten == 8000 || a.Ten == 12000) {
		// Kiriage mangan (special lobbies' rules): 30 fu 4 han and 60 fu
		// 3 han are paid as a mangan, and ten= says so.
		limit = 1
	}
	score, err := ScoreString(a.Fu, han, limit, len(a.Yakuman), a.Who == oya, a.Who == a.FromWho)
	if err != nil {
		return nil, err
	}
	return append([]any{a.Who, a.FromWho, pao, score}, yaku...), nil
}

// ScoreString returns Tenhou's score text of a win: "{fu}符{han}飜" or the
// limit name (limit 1 満貫 … 5 役満, as AGARI ten= gives it) followed by
// the ron value "{n}点", a non-dealer's tsumo "{non-dealer}-{dealer}点"
// or a dealer's tsumo "{n}点∀". The points are the four-player payments
// of the basic points (fu·2^(han+2), or 2000, 3000, 4000, 6000, 8000 per
// yakuman for the limits) rounded up to 100, without honba; yakuman is the
// number of yakuman (0 or 1 counts as one). It returns an error for a
// limit outside 0..5 or a non-limit hand without fu or han.
func ScoreString(fu, han, limit, yakuman int, dealer, tsumo bool) (string, error) {
	var rank string
	var base int
	switch {
	case limit < 0 || limit >= len(limitNames):
		return "", fmt.Errorf("limit %d outside 0..5", limit)
	case limit > 0:
		rank, base = limitNames[limit], limitBase[limit]*max(yakuman, 1)
	case fu <= 0 || han <= 0 || han > 12:
		return "", fmt.Errorf("%d fu %d han without a limit", fu, han)
	default:
		rank, base = strconv.Itoa(fu)+"符"+strconv.Itoa(han)+"飜", fu<<(han+2)
	}
	up := func(x int) string { return strconv.Itoa((x + 99) / 100 * 100) }
	switch {
	case tsumo && dealer:
		return rank + up(2*base) + "点∀", nil
	case tsumo:
		return rank + up(base) + "-" + up(2*base) + "点", nil
	case dealer:
		return rank + up(6*base) + "点", nil
	}
	return rank + up(4*base) + "点", nil
}
