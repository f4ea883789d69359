// Each machine level's measured Elo against level 0, with its 95%
// interval; made by scripts/level_elo.py --write from the ladders in
// docs/web-pages.md. bound '<=' or '>=': a pair that scored every point
// leaves only a bound.
export const STRENGTH = {
 "antichess": {
  "0": {"elo": 0, "low": 0, "high": 0, "bound": ""},
  "1": {"elo": -1334, "low": -1671, "high": -997, "bound": ""},
  "2": {"elo": -1272, "low": -1597, "high": -948, "bound": ""},
  "3": {"elo": -1070, "low": -1375, "high": -765, "bound": ""},
  "4": {"elo": -633, "low": -891, "high": -376, "bound": ""},
  "5": {"elo": -572, "low": -808, "high": -336, "bound": ""},
  "6": {"elo": -381, "low": -587, "high": -175, "bound": ""},
  "7": {"elo": -337, "low": -513, "high": -161, "bound": ""},
  "8": {"elo": -285, "low": -427, "high": -142, "bound": ""},
  "10": {"elo": -15, "low": -254, "high": 223, "bound": ""}
 },
 "chess": {
  "0": {"elo": 0, "low": 0, "high": 0, "bound": ""},
  "1": {"elo": -2021, "low": -2570, "high": -1471, "bound": "<="},
  "2": {"elo": -2003, "low": -2552, "high": -1454, "bound": "<="},
  "3": {"elo": -1492, "low": -1985, "high": -998, "bound": "<="},
  "4": {"elo": -847, "low": -1204, "high": -490, "bound": ""},
  "5": {"elo": -656, "low": -979, "high": -332, "bound": ""},
  "6": {"elo": -354, "low": -616, "high": -93, "bound": ""},
  "8": {"elo": -53, "low": -231, "high": 125, "bound": ""},
  "10": {"elo": 17, "low": -105, "high": 140, "bound": ""}
 },
 "checkers": {
  "0": {"elo": 0, "low": 0, "high": 0, "bound": ""},
  "1": {"elo": -1833, "low": -2401, "high": -1266, "bound": ""},
  "2": {"elo": -1593, "low": -2127, "high": -1058, "bound": ""},
  "3": {"elo": -1211, "low": -1682, "high": -740, "bound": ""},
  "4": {"elo": -909, "low": -1329, "high": -490, "bound": ""},
  "6": {"elo": -473, "low": -778, "high": -169, "bound": ""},
  "8": {"elo": -258, "low": -502, "high": -14, "bound": ""},
  "12": {"elo": -17, "low": -170, "high": 135, "bound": ""}
 }
};
