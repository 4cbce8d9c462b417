"""Class 321: BPE recomputed with the paper's regex-based Algorithm 1; claims from its numbers."""

import collections
import re

import pytest

from tests.course_labs import emitted, lab_module

KEYS = [
    "corpus_inicial",
    "fusiones",
    "frecuencia_de_cada_fusion",
    "simbolos_en_el_corpus",
    "las_frecuencias_no_crecen",
    "cada_fusion_ahorra_su_frecuencia",
    "tamano_del_vocabulario",
    "segmentacion_de_palabras_nuevas",
    "decodificacion",
    "caracteres_por_token",
]
CORPUS = {"l o w </w>": 5, "l o w e r </w>": 2, "n e w e s t </w>": 6, "w i d e s t </w>": 3}
SYLLABUS_MERGES = ["es", "est", "est</w>", "lo", "low", "ne", "new", "newest</w>", "low</w>", "wi"]


def get_stats(vocab: dict[str, int]) -> dict[tuple[str, str], int]:
    """Algorithm 1 of Sennrich et al. (2016), as printed in the paper."""
    pairs: dict[tuple[str, str], int] = collections.defaultdict(int)
    for word, freq in vocab.items():
        symbols = word.split()
        for i in range(len(symbols) - 1):
            pairs[symbols[i], symbols[i + 1]] += freq
    return pairs


def merge_vocab(pair: tuple[str, str], v_in: dict[str, int]) -> dict[str, int]:
    bigram = re.escape(" ".join(pair))
    p = re.compile(r"(?<!\S)" + bigram + r"(?!\S)")
    return {p.sub("".join(pair), word): freq for word, freq in v_in.items()}


def reference_bpe(num_merges: int) -> tuple[list[tuple[str, str]], list[int], list[int]]:
    vocab = dict(CORPUS)
    merges, freqs = [], []
    sizes = [sum(len(w.split()) * f for w, f in vocab.items())]
    for _ in range(num_merges):
        pairs = get_stats(vocab)
        best = max(pairs, key=pairs.get)  # first occurrence wins a tie
        merges.append(best)
        freqs.append(pairs[best])
        vocab = merge_vocab(best, vocab)
        sizes.append(sum(len(w.split()) * f for w, f in vocab.items()))
    return merges, freqs, sizes


@pytest.fixture(scope="module")
def out() -> dict:
    return emitted(321)


def test_keys_in_the_syllabus_order(out: dict) -> None:
    assert list(out) == KEYS
    assert out["corpus_inicial"] == CORPUS


def test_merges_match_the_papers_algorithm(out: dict) -> None:
    merges, freqs, sizes = reference_bpe(10)
    assert [tuple(m) for m in out["fusiones"]] == merges
    assert ["".join(m) for m in out["fusiones"]] == SYLLABUS_MERGES
    assert out["frecuencia_de_cada_fusion"] == freqs == [9, 9, 9, 7, 7, 6, 6, 6, 5, 3]
    assert out["simbolos_en_el_corpus"] == sizes
    assert sizes[0] == 95 and sizes[-1] == 28 and len(sizes) == 11


def test_claims_recomputed_from_emitted_numbers(out: dict) -> None:
    f, s = out["frecuencia_de_cada_fusion"], out["simbolos_en_el_corpus"]
    assert out["las_frecuencias_no_crecen"] == all(f[i] >= f[i + 1] for i in range(len(f) - 1))
    assert out["cada_fusion_ahorra_su_frecuencia"] == all(
        s[i] - s[i + 1] == f[i] for i in range(len(f))
    )
    assert out["las_frecuencias_no_crecen"] and out["cada_fusion_ahorra_su_frecuencia"]
    segs = out["segmentacion_de_palabras_nuevas"]
    decoded = out["decodificacion"]
    assert list(decoded) == [*segs, "low", "lower", "newest", "widest"]
    for word, tokens in segs.items():
        assert decoded[word] == "".join(tokens).replace("</w>", "") == word
    assert all(decoded[w] == w for w in ("low", "lower", "newest", "widest"))


def test_vocabulary_size_and_compression(out: dict) -> None:
    initial = {sym for word in CORPUS for sym in word.split()}
    assert len(initial) == 11
    assert out["tamano_del_vocabulario"] == len(initial) + len(out["fusiones"]) == 21
    assert isinstance(out["tamano_del_vocabulario"], int)
    chars = sum(len(w.replace(" ", "").replace("</w>", "")) * f for w, f in CORPUS.items())
    assert chars == 79
    assert out["caracteres_por_token"] == pytest.approx(
        chars / out["simbolos_en_el_corpus"][-1], abs=1e-6
    )
    assert out["caracteres_por_token"] == pytest.approx(2.821429, abs=1e-6)


def test_new_words_segmented_by_applying_merges_in_order(out: dict) -> None:
    merges, _, _ = reference_bpe(10)
    for word in ("lowest", "newer", "wider"):
        vocab = {" ".join(list(word) + ["</w>"]): 1}
        for pair in merges:
            vocab = merge_vocab(pair, vocab)
        (segmented,) = vocab
        assert out["segmentacion_de_palabras_nuevas"][word] == segmented.split()
    assert out["segmentacion_de_palabras_nuevas"] == {
        "lowest": ["low", "est</w>"],
        "newer": ["new", "e", "r", "</w>"],
        "wider": ["wi", "d", "e", "r", "</w>"],
    }


def test_other_tie_breaks_change_the_pairs_but_not_the_frequencies(out: dict) -> None:
    vocab_rules = {
        "larger": [
            "t</w>",
            "st</w>",
            "est</w>",
            "ow",
            "low",
            "west</w>",
            "ne",
            "newest</w>",
            "low</w>",
            "wi",
        ],
        "smaller": [
            "es",
            "est",
            "est</w>",
            "lo",
            "low",
            "ew",
            "ewest</w>",
            "newest</w>",
            "low</w>",
            "dest</w>",
        ],
    }
    for rule, expected in vocab_rules.items():
        vocab = dict(CORPUS)
        merges, freqs = [], []
        for _ in range(10):
            stats = get_stats(vocab)
            if rule == "larger":  # subword-nmt's tie-break, but on this class's spelling
                best = max(stats, key=lambda x: (stats[x], x))
            else:
                best = min(stats, key=lambda x: (-stats[x], x))
            merges.append("".join(best))
            freqs.append(stats[best])
            vocab = merge_vocab(best, vocab)
        assert merges == expected
        assert freqs == out["frecuencia_de_cada_fusion"]


def test_overlapping_pair_counts_two_but_saves_one() -> None:
    lab = lab_module(321)
    corpus = [(["a", "a", "a", "</w>"], 1)]
    assert lab.contar_pares(corpus)[("a", "a")] == 2
    merges, freqs, sizes, _ = lab.aprender_bpe(corpus, 1)
    assert merges == [("a", "a")] and freqs == [2]
    assert sizes[0] - sizes[1] == 1  # the saving theorem needs no overlaps
    assert lab.fusionar(["a", "a", "a"], ("a", "a")) == ["aa", "a"]


def test_end_of_word_marker_keeps_final_and_inner_pieces_apart(out: dict) -> None:
    symbols = ["".join(m) for m in out["fusiones"]]
    assert "est" in symbols and "est</w>" in symbols  # the word-final piece is its own symbol
    lab = lab_module(321)
    # "estimate"-like inner "est" is not glued to the end marker
    assert lab.segmentar("esta", [tuple(m) for m in out["fusiones"]]) == ["est", "a", "</w>"]


def test_more_merges_than_pairs_stops_cleanly() -> None:
    big = emitted(321, numero_de_fusiones=100)
    assert big["simbolos_en_el_corpus"][-1] == sum(CORPUS.values())  # one symbol per word
    assert big["las_frecuencias_no_crecen"] and big["cada_fusion_ahorra_su_frecuencia"]
    assert all(word == text for word, text in big["decodificacion"].items())
    none = emitted(321, numero_de_fusiones=0)
    assert none["fusiones"] == [] and none["simbolos_en_el_corpus"] == [95]
    assert none["tamano_del_vocabulario"] == 11


SUBWORD_NMT_PAIRS = [
    ("s", "t</w>"),
    ("e", "st</w>"),
    ("l", "o"),
    ("w", "est</w>"),
    ("n", "e"),
    ("ne", "west</w>"),
    ("lo", "w</w>"),
    ("w", "i"),
    ("wi", "d"),
    ("wid", "est</w>"),
]
SUBWORD_NMT_FREQS = [9, 9, 7, 6, 6, 6, 5, 3, 3, 3]


def test_subword_nmt_learns_other_merges_from_its_other_spelling(out: dict) -> None:
    """The page's claim about subword-nmt, checked against the library itself."""
    learn_bpe = pytest.importorskip("subword_nmt.learn_bpe")
    import io

    text = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3
    codes = io.StringIO()
    learn_bpe.learn_bpe(io.StringIO(text), codes, 10)
    lines = [line for line in codes.getvalue().splitlines() if not line.startswith("#")]
    assert [tuple(line.split()) for line in lines] == SUBWORD_NMT_PAIRS
    assert [tuple(m) for m in out["fusiones"]] != SUBWORD_NMT_PAIRS


def test_glued_end_marker_changes_the_frequencies(out: dict) -> None:
    """subword-nmt's spelling («w</w>» one symbol) with its tie-break (larger pair), by hand."""
    spelling = {"l o w</w>": 5, "l o w e r</w>": 2, "n e w e s t</w>": 6, "w i d e s t</w>": 3}
    glued = dict(spelling)
    merges, freqs = [], []
    for _ in range(10):
        stats = get_stats(glued)
        best = max(stats, key=lambda x: (stats[x], x))
        merges.append(best)
        freqs.append(stats[best])
        glued = merge_vocab(best, glued)
    assert merges == SUBWORD_NMT_PAIRS and freqs == SUBWORD_NMT_FREQS
    # the lab, fed the same spelling, finds the same counts (its own tie-break picks other pairs)
    lab = lab_module(321)
    corpus = [(word.split(), f) for word, f in spelling.items()]
    assert lab.aprender_bpe(corpus, 10)[1] == SUBWORD_NMT_FREQS
    assert out["frecuencia_de_cada_fusion"] != SUBWORD_NMT_FREQS


def test_an_unseen_character_is_out_of_vocabulary(out: dict) -> None:
    lab = lab_module(321)
    vocabulary = {s for word in CORPUS for s in word.split()} | {
        "".join(m) for m in out["fusiones"]
    }
    assert len(vocabulary) == out["tamano_del_vocabulario"]
    tokens = lab.segmentar("zoo", [tuple(m) for m in out["fusiones"]])
    assert tokens == ["z", "o", "o", "</w>"]
    assert [t for t in tokens if t not in vocabulary] == ["z"]
    for word, tokens in out["segmentacion_de_palabras_nuevas"].items():
        assert set(tokens) <= vocabulary  # the three new words only use known letters
