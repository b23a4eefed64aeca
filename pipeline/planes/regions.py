"""Connected components on a small board, compiled with numba.

Every plane group that reasons about shape (blocks and their liberties, the
regions a side encloses, the Euler number, nakade shapes) starts by labelling
connected sets of points.  Boards are at most 19×19, so these are plain
breadth-first fills over ``[y, x]`` arrays, compiled functions that the plane
groups' own compiled functions call, so that a group is one call from Python
(a call from Python, its arguments checked, costs a microsecond or two, as
much as labelling a 13×13 board).
"""
from __future__ import annotations

import numpy as np
from numba import njit

_DY4 = np.array([-1, 1, 0, 0], dtype=np.int64)
_DX4 = np.array([0, 0, -1, 1], dtype=np.int64)
_DY8 = np.array([-1, 1, 0, 0, -1, -1, 1, 1], dtype=np.int64)
_DX8 = np.array([0, 0, -1, 1, -1, 1, -1, 1], dtype=np.int64)


@njit(cache=True)
def _fill(labels, values, value, y0, x0, label, dy, dx, queue):
    """Label the component of points where ``values == value`` holding (y0, x0); returns its size."""
    rows, cols = values.shape
    labels[y0, x0] = label
    queue[0] = y0 * cols + x0
    head, tail = 0, 1
    while head < tail:
        p = queue[head]
        head += 1
        y, x = p // cols, p % cols
        for d in range(dy.shape[0]):
            v, u = y + dy[d], x + dx[d]
            if 0 <= v < rows and 0 <= u < cols and values[v, u] == value and labels[v, u] < 0:
                labels[v, u] = label
                queue[tail] = v * cols + u
                tail += 1
    return tail


@njit(cache=True)
def _label(mask, dy, dx):
    rows, cols = mask.shape
    labels = np.full((rows, cols), -1, dtype=np.int32)
    sizes = np.zeros(rows * cols + 1, dtype=np.int32)
    queue = np.empty(rows * cols, dtype=np.int64)
    count = 0
    for y in range(rows):
        for x in range(cols):
            if mask[y, x] and labels[y, x] < 0:
                sizes[count] = _fill(labels, mask, True, y, x, count, dy, dx, queue)
                count += 1
    return labels, sizes[:count + 1]


@njit(cache=True)
def enclosed_regions(stones, color):
    """The regions ``color`` encloses: 4-connected components of the points that are not its stones.

    Each is bounded only by ``color``'s stones and the board edge (that is
    what being a maximal component of the other points means).  Returns
    ``labels`` (int32, -1 on ``color``'s stones, else 0..n-1 in row-major
    order of each region's first point) and ``sizes`` of length n + 1 whose
    last entry is 0, so ``sizes[labels]`` is 0 on the stones.
    """
    return _label(stones != color, _DY4, _DX4)


@njit(cache=True)
def stone_groups(stones, color):
    """``color``'s stones in 8-connected groups (stones touching at a corner too), labelled as
    :func:`enclosed_regions` labels its regions."""
    return _label(stones == color, _DY8, _DX8)


@njit(cache=True)
def label_blocks(stones):
    """Blocks (4-connected same-colour stones) of an int8 ``[y, x]`` board.

    Returns ``labels`` as :func:`enclosed_regions` does (-1 on empty points),
    and per block its ``sizes`` and ``liberties``, each with a trailing 0 for
    label -1.
    """
    rows, cols = stones.shape
    labels = np.full((rows, cols), -1, dtype=np.int32)
    sizes = np.zeros(rows * cols + 1, dtype=np.int32)
    liberties = np.zeros(rows * cols + 1, dtype=np.int32)
    counted_for = np.full((rows, cols), -1, dtype=np.int32)
    queue = np.empty(rows * cols, dtype=np.int64)
    count = 0
    for y in range(rows):
        for x in range(cols):
            if stones[y, x] == 0 or labels[y, x] >= 0:
                continue
            n = _fill(labels, stones, stones[y, x], y, x, count, _DY4, _DX4, queue)
            sizes[count] = n
            # The fill left the block's points in queue[:n]: count each empty neighbour once.
            for i in range(n):
                v0, u0 = queue[i] // cols, queue[i] % cols
                for d in range(4):
                    v, u = v0 + _DY4[d], u0 + _DX4[d]
                    if 0 <= v < rows and 0 <= u < cols and stones[v, u] == 0 and counted_for[v, u] != count:
                        counted_for[v, u] = count
                        liberties[count] += 1
            count += 1
    return labels, sizes[:count + 1], liberties[:count + 1]


@njit(cache=True)
def regions_around(groups, count):
    """For each labelled group, how many 4-connected regions the rest of the board splits into."""
    rows, cols = groups.shape
    regions = np.zeros(count, dtype=np.int32)
    labels = np.empty((rows, cols), dtype=np.int32)
    queue = np.empty(rows * cols, dtype=np.int64)
    for group in range(count):
        outside = groups != group
        labels[:, :] = -1
        for y in range(rows):
            for x in range(cols):
                if outside[y, x] and labels[y, x] < 0:
                    _fill(labels, outside, True, y, x, regions[group], _DY4, _DX4, queue)
                    regions[group] += 1
    return regions


@njit(cache=True)
def unique_cut_points(regions, sizes, smallest, largest):
    """uint8 ``[y, x]``: the one point splitting a region, where there is exactly one.

    Only regions of ``smallest``..``largest`` points are looked at; a point
    "splits" a region when the region minus that point is not 4-connected.
    """
    rows, cols = regions.shape
    marked = np.zeros((rows, cols), dtype=np.uint8)
    count = sizes.shape[0] - 1
    ys = np.empty(largest, dtype=np.int64)
    xs = np.empty(largest, dtype=np.int64)
    seen = np.empty(largest, dtype=np.int64)
    queue = np.empty(largest, dtype=np.int64)
    for region in range(count):
        n = sizes[region]
        if n < smallest or n > largest:
            continue
        k = 0
        for y in range(rows):
            for x in range(cols):
                if regions[y, x] == region:
                    ys[k] = y
                    xs[k] = x
                    k += 1
        cut, cuts = -1, 0
        for removed in range(n):
            # Is the region still connected without point ``removed``?
            seen[:n] = 0
            start = 1 if removed == 0 else 0
            seen[start] = 1
            queue[0] = start
            head, tail = 0, 1
            while head < tail:
                i = queue[head]
                head += 1
                for j in range(n):
                    if j != removed and seen[j] == 0 and abs(ys[i] - ys[j]) + abs(xs[i] - xs[j]) == 1:
                        seen[j] = 1
                        queue[tail] = j
                        tail += 1
            if tail < n - 1:
                cuts += 1
                cut = removed
        if cuts == 1:
            marked[ys[cut], xs[cut]] = 1
    return marked
