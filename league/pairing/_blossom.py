"""Maximum-weight perfect matching together with its dual, the proof of its optimum.

Edmonds' blossom algorithm in the O(n³) form of Galil (1986, "Efficient algorithms for
finding maximum matching in graphs"), laid out as in Joris van Rantwijk's well-known
implementation (the one networkx uses). It is our own because networkx keeps the dual to
itself, and the dual is what lets :func:`._matching.proven_matching` solve a sparse set of
edges and still prove the optimum over every pair: a matching is optimal over any larger set
of edges as long as every added edge keeps a non-negative slack (see :meth:`Matched.slack`).

Duals are kept doubled (``dual[v] = 2 u_v``) on doubled weights, so that every quantity stays
an integer: the slack of an edge (i, j) of weight w is ``dual[i] + dual[j] - 4 w`` plus twice
the duals of the blossoms holding both i and j. Vertex duals start at the greatest weight
around each vertex, and a greedy pass matches tight edges before the first stage (all still
unmatched vertices keep even duals, which keeps every halved slack an integer).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

Edge = tuple[int, int, int]  # (i, j, weight)


@dataclass(frozen=True)
class Matched:
    """A perfect matching (`mate`) and its dual: vertex duals, then blossom duals, and each
    vertex's and blossom's enclosing blossom (-1 at the top)."""

    mate: list[int]
    dual: list[int]
    parent: list[int]

    def pairs(self) -> list[tuple[int, int]]:
        return [(v, w) for v, w in enumerate(self.mate) if v < w]

    @cached_property
    def chains(self) -> list[list[int]]:
        """The blossoms holding each vertex, outermost first."""
        chains = []
        for v in range(len(self.mate)):
            chain = []
            b = self.parent[v]
            while b != -1:
                chain.append(b)
                b = self.parent[b]
            chain.reverse()
            chains.append(chain)
        return chains

    @cached_property
    def _sums(self) -> list[list[int]]:
        """Along each vertex's chain, twice the sum of the blossom duals so far."""
        sums = []
        for chain in self.chains:
            total, running = 0, []
            for b in chain:
                total += 2 * self.dual[b]
                running.append(total)
            sums.append(running)
        return sums

    def slack(self, i: int, j: int, weight: int) -> int:
        """The (scaled) slack of an edge (i, j) of `weight`; the matching is optimal over a set
        of edges if no edge of the set has a negative slack."""
        slack = self.dual[i] + self.dual[j] - 4 * weight
        first, second = self.chains[i], self.chains[j]
        low, high = 0, min(len(first), len(second))  # blossoms holding both: a common prefix
        while low < high:
            middle = (low + high + 1) // 2
            if first[middle - 1] == second[middle - 1]:
                low = middle
            else:
                high = middle - 1
        return slack + self._sums[i][low - 1] if low else slack


def max_weight_perfect(count: int, edges: Sequence[Edge]) -> Matched:
    """A maximum-weight perfect matching of vertices ``range(count)`` over `edges` (integer
    weights, any sign), which must hold a perfect matching."""
    state = _State(count, edges)
    state.solve()
    if any(m == -1 for m in state.mate):
        raise ValueError("the edges hold no perfect matching")
    return Matched(
        mate=[state.endpoint[p] for p in state.mate],
        dual=list(state.dual),
        parent=list(state.parent),
    )


class _State:
    """One run of the algorithm. Edge k has endpoints 2k and 2k + 1 (``endpoint[p]``); a
    vertex's `mate` is the endpoint at the far side of its matched edge. Blossoms are numbered
    from `count` on; `label` is 0 (free), 1 (S) or 2 (T) for top-level blossoms and vertices."""

    def __init__(self, count: int, edges: Sequence[Edge]) -> None:
        n = count
        self.n = n
        self.endpoint = [v for i, j, _ in edges for v in (i, j)]
        self.weight = [2 * w for _, _, w in edges]
        self.neighbend: list[list[int]] = [[] for _ in range(n)]
        for k, (i, j, _) in enumerate(edges):
            self.neighbend[i].append(2 * k + 1)
            self.neighbend[j].append(2 * k)
        self.mate = [-1] * n
        self.label = [0] * (2 * n)
        self.labelend = [-1] * (2 * n)
        self.inblossom = list(range(n))
        self.parent = [-1] * (2 * n)
        self.childs: list[list[int]] = [[] for _ in range(2 * n)]
        self.endps: list[list[int]] = [[] for _ in range(2 * n)]
        self.base = list(range(n)) + [-1] * n
        self.bestedge = [-1] * (2 * n)
        self.bestedges: list[list[int] | None] = [None] * (2 * n)
        self.unused = list(range(2 * n - 1, n - 1, -1))
        self.dual = [0] * (2 * n)
        self.allowed = [False] * len(edges)
        self.queue: list[int] = []
        self._start()

    def _start(self) -> None:
        """Feasible duals (each vertex's greatest weight), then tight edges matched greedily,
        each unmatched vertex's dual lowered to the most that keeps it feasible."""
        n, endpoint, weight, dual, mate = self.n, self.endpoint, self.weight, self.dual, self.mate
        for v in range(n):
            dual[v] = max((weight[p >> 1] for p in self.neighbend[v]), default=0)
        for v in range(n):
            if mate[v] != -1 or not self.neighbend[v]:
                continue
            best = max(self.neighbend[v], key=lambda p: 2 * weight[p >> 1] - dual[endpoint[p]])
            dual[v] = 2 * weight[best >> 1] - dual[endpoint[best]]
            w = endpoint[best]
            if mate[w] == -1:
                mate[v], mate[w] = best, best ^ 1

    def slack(self, k: int) -> int:
        return (
            self.dual[self.endpoint[2 * k]]
            + self.dual[self.endpoint[2 * k + 1]]
            - (2 * self.weight[k])
        )

    def leaves(self, b: int) -> list[int]:
        if b < self.n:
            return [b]
        found, stack = [], [b]
        while stack:
            t = stack.pop()
            if t < self.n:
                found.append(t)
            else:
                stack.extend(self.childs[t])
        return found

    def assign_label(self, w: int, t: int, p: int) -> None:
        b = self.inblossom[w]
        self.label[w] = self.label[b] = t
        self.labelend[w] = self.labelend[b] = p
        self.bestedge[w] = self.bestedge[b] = -1
        if t == 1:
            self.queue.extend(self.leaves(b))
        else:  # a T-blossom: its base's mate becomes S
            base_mate = self.mate[self.base[b]]
            self.assign_label(self.endpoint[base_mate], 1, base_mate ^ 1)

    def scan_blossom(self, v: int, w: int) -> int:
        """The base of the new blossom closed by an edge between S-vertices v and w, or -1 if
        the edge joins two trees (an augmenting path)."""
        label, inblossom, labelend, endpoint = (
            self.label,
            self.inblossom,
            self.labelend,
            self.endpoint,
        )
        path = []
        base = -1
        while v != -1 or w != -1:
            b = inblossom[v]
            if label[b] & 4:
                base = self.base[b]
                break
            path.append(b)
            label[b] = 5
            # Up to the S-blossom above the T-blossom above b (none above a root).
            end = labelend[b]
            v = -1 if end == -1 else endpoint[labelend[inblossom[endpoint[end]]]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        inblossom, endpoint, labelend = self.inblossom, self.endpoint, self.labelend
        v, w = endpoint[2 * k], endpoint[2 * k + 1]
        bb, bv, bw = inblossom[base], inblossom[v], inblossom[w]
        b = self.unused.pop()
        self.base[b] = base
        self.parent[b] = -1
        self.parent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:  # from v back to the base
            self.parent[bv] = b
            path.append(bv)
            endps.append(labelend[bv])
            bv = inblossom[endpoint[labelend[bv]]]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:  # from w back to the base
            self.parent[bw] = b
            path.append(bw)
            endps.append(labelend[bw] ^ 1)
            bw = inblossom[endpoint[labelend[bw]]]
        self.childs[b], self.endps[b] = path, endps
        self.label[b] = 1
        labelend[b] = labelend[bb]
        self.dual[b] = 0
        for v in self.leaves(b):
            if self.label[inblossom[v]] == 2:
                self.queue.append(v)  # a former T-vertex, now S: to scan
            inblossom[v] = b
        self._best_edges(b, path)

    def _best_edges(self, b: int, path: list[int]) -> None:
        """The least-slack edge from the new S-blossom b to each other S-blossom."""
        inblossom, endpoint = self.inblossom, self.endpoint
        best_to: dict[int, int] = {}
        for bv in path:
            known = self.bestedges[bv]
            if known is None:
                lists = [[p >> 1 for p in self.neighbend[v]] for v in self.leaves(bv)]
            else:
                lists = [known]
            for edges in lists:
                for k in edges:
                    i, j = endpoint[2 * k], endpoint[2 * k + 1]
                    if inblossom[j] == b:
                        i, j = j, i
                    bj = inblossom[j]
                    if (
                        bj != b
                        and self.label[bj] == 1
                        and (bj not in best_to or self.slack(k) < self.slack(best_to[bj]))
                    ):
                        best_to[bj] = k
            self.bestedges[bv] = None
            self.bestedge[bv] = -1
        edges = list(best_to.values())
        self.bestedges[b] = edges
        self.bestedge[b] = min(edges, key=self.slack, default=-1)

    def expand_blossom(self, b: int, endstage: bool) -> None:
        """Dissolve top-level blossom b into its children (at the end of a stage, also the
        children whose dual is zero, and so on down)."""
        stack = [b]
        while stack:
            b = stack.pop()
            for s in self.childs[b]:
                self.parent[s] = -1
                if s < self.n:
                    self.inblossom[s] = s
                elif endstage and self.dual[s] == 0:
                    stack.append(s)
                else:
                    for v in self.leaves(s):
                        self.inblossom[v] = s
            if not endstage and self.label[b] == 2:
                self._relabel(b)
            self.label[b] = self.labelend[b] = -1
            self.childs[b], self.endps[b] = [], []
            self.base[b] = -1
            self.bestedges[b] = None
            self.bestedge[b] = -1
            self.unused.append(b)

    def _relabel(self, b: int) -> None:
        """Label the children of T-blossom b, being expanded mid-stage: the path through it
        from where it was reached to its base alternates T and S, the rest is free (or T
        where reached already)."""
        endpoint, childs, endps, label = self.endpoint, self.childs[b], self.endps[b], self.label
        entrychild = self.inblossom[endpoint[self.labelend[b] ^ 1]]
        j = childs.index(entrychild)
        if j & 1:  # go forward, wrapping round
            j -= len(childs)
            jstep, endptrick = 1, 0
        else:
            jstep, endptrick = -1, 1
        p = self.labelend[b]
        while j != 0:
            label[endpoint[p ^ 1]] = 0
            label[endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
            self.assign_label(endpoint[p ^ 1], 2, p)
            self.allowed[endps[j - endptrick] >> 1] = True
            j += jstep
            p = endps[j - endptrick] ^ endptrick
            self.allowed[p >> 1] = True
            j += jstep
        bv = childs[j]
        label[endpoint[p ^ 1]] = label[bv] = 2
        self.labelend[endpoint[p ^ 1]] = self.labelend[bv] = p
        self.bestedge[bv] = -1
        j += jstep
        while childs[j] != entrychild:
            bv = childs[j]
            j += jstep
            if label[bv] == 1:
                continue
            reached = next((v for v in self.leaves(bv) if label[v] != 0), None)
            if reached is not None:
                label[reached] = 0
                label[endpoint[self.mate[self.base[bv]]]] = 0
                self.assign_label(reached, 2, self.labelend[reached])

    def augment_blossom(self, b: int, v: int) -> None:
        """Swap matched and unmatched edges inside blossom b so that v becomes its base."""
        stack = [(b, v)]
        while stack:
            b, v = stack.pop()
            t = v
            while self.parent[t] != b:
                t = self.parent[t]
            if t >= self.n:
                stack.append((t, v))
            childs, endps = self.childs[b], self.endps[b]
            i = j = childs.index(t)
            if i & 1:
                j -= len(childs)
                jstep, endptrick = 1, 0
            else:
                jstep, endptrick = -1, 1
            while j != 0:
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                if childs[j] >= self.n:
                    stack.append((childs[j], self.endpoint[p]))
                j += jstep
                if childs[j] >= self.n:
                    stack.append((childs[j], self.endpoint[p ^ 1]))
                self.mate[self.endpoint[p]] = p ^ 1
                self.mate[self.endpoint[p ^ 1]] = p
            self.childs[b] = childs[i:] + childs[:i]
            self.endps[b] = endps[i:] + endps[:i]
            self.base[b] = v

    def augment_matching(self, k: int) -> None:
        """Augment along the path through edge k between the roots of two trees."""
        endpoint, inblossom, labelend = self.endpoint, self.inblossom, self.labelend
        for s, p in ((endpoint[2 * k], 2 * k + 1), (endpoint[2 * k + 1], 2 * k)):
            while True:
                bs = inblossom[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = p
                if labelend[bs] == -1:
                    break  # the root
                bt = inblossom[endpoint[labelend[bs]]]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= self.n:
                    self.augment_blossom(bt, j)
                self.mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    def scan(self) -> bool:
        """Grow the trees from the queued S-vertices over tight edges; True on augmenting."""
        endpoint, inblossom, label, allowed = (
            self.endpoint,
            self.inblossom,
            self.label,
            self.allowed,
        )
        bestedge, dual, weight = self.bestedge, self.dual, self.weight
        while self.queue:
            v = self.queue.pop()
            for p in self.neighbend[v]:
                k = p >> 1
                w = endpoint[p]
                bv, bw = inblossom[v], inblossom[w]
                if bv == bw:
                    continue
                kslack = 0
                if not allowed[k]:
                    kslack = dual[v] + dual[w] - 2 * weight[k]
                    allowed[k] = kslack <= 0
                if allowed[k]:
                    if self._tight(v, w, p):
                        return True
                    continue
                b = bv if label[bw] == 1 else w if label[w] == 0 else -1
                if b != -1:
                    best = bestedge[b]  # (its slack, written out: this loop is the hot one)
                    if best == -1 or kslack < (
                        dual[endpoint[2 * best]] + dual[endpoint[2 * best + 1]] - 2 * weight[best]
                    ):
                        bestedge[b] = k
        return False

    def _tight(self, v: int, w: int, p: int) -> bool:
        """Follow the tight edge from S-vertex v to w (endpoint p); True on augmenting."""
        bw = self.inblossom[w]
        if self.label[bw] == 0:
            self.assign_label(w, 2, p ^ 1)
        elif self.label[bw] == 1:
            base = self.scan_blossom(v, w)
            if base == -1:
                self.augment_matching(p >> 1)
                return True
            self.add_blossom(base, p >> 1)
        elif self.label[w] == 0:  # inside a T-blossom, reached for the first time
            self.label[w] = 2
            self.labelend[w] = p ^ 1
        return False

    def delta(self) -> tuple[int, int, int]:
        """The least dual change that makes progress: (kind, amount, edge or blossom)."""
        n, label, inblossom, bestedge, slack = (
            self.n,
            self.label,
            self.inblossom,
            self.bestedge,
            self.slack,
        )
        kind, amount, which = -1, 0, -1
        for v in range(n):
            if label[inblossom[v]] == 0 and bestedge[v] != -1:
                d = slack(bestedge[v])
                if kind == -1 or d < amount:
                    kind, amount, which = 2, d, bestedge[v]
        for b in range(2 * n):
            if self.parent[b] == -1 and label[b] == 1 and bestedge[b] != -1:
                d = slack(bestedge[b]) // 2
                if kind == -1 or d < amount:
                    kind, amount, which = 3, d, bestedge[b]
        for b in range(n, 2 * n):
            if (
                self.base[b] >= 0
                and self.parent[b] == -1
                and label[b] == 2
                and (kind == -1 or self.dual[b] < amount)
            ):
                kind, amount, which = 4, self.dual[b], b
        return kind, amount, which

    def update_duals(self, amount: int) -> None:
        label, inblossom, dual = self.label, self.inblossom, self.dual
        for v in range(self.n):
            if label[inblossom[v]] == 1:
                dual[v] -= amount
            elif label[inblossom[v]] == 2:
                dual[v] += amount
        for b in range(self.n, 2 * self.n):
            if self.base[b] >= 0 and self.parent[b] == -1:
                if label[b] == 1:
                    dual[b] += amount
                elif label[b] == 2:
                    dual[b] -= amount

    def stage(self) -> bool:
        """One stage: trees from every unmatched vertex, grown until an augmenting path is
        found (True) or none exists (False)."""
        n = self.n
        self.label[:] = [0] * (2 * n)
        self.bestedge[:] = [-1] * (2 * n)
        self.bestedges[n:] = [None] * n
        self.allowed[:] = [False] * len(self.allowed)
        self.queue[:] = []
        for v in range(n):
            if self.mate[v] == -1 and self.label[self.inblossom[v]] == 0:
                self.assign_label(v, 1, -1)
        while not self.scan():
            kind, amount, which = self.delta()
            if kind == -1:
                return False
            self.update_duals(amount)
            if kind == 4:
                self.expand_blossom(which, False)
            else:
                self.allowed[which] = True
                i, j = self.endpoint[2 * which], self.endpoint[2 * which + 1]
                if self.label[self.inblossom[i]] == 0:
                    i = j
                self.queue.append(i)
        for b in range(n, 2 * n):
            if (
                self.parent[b] == -1
                and self.base[b] >= 0
                and self.label[b] == 1
                and self.dual[b] == 0
            ):
                self.expand_blossom(b, True)
        return True

    def solve(self) -> None:
        while -1 in self.mate and self.stage():
            pass
