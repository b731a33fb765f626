/* engine._core: the compiled move generator and DAWG compiler.
 *
 * The same Appel-Jacobson search as engine.movegen's Python reference, in the
 * same order (rows then columns, anchors left to right, letters A to Z, a real
 * tile before a joker), so both produce the same list. Moves come out compact:
 * per move a reference code, a score, the main word in a 16-byte slot (padded
 * with spaces) and a byte (tiles placed | jokers placed << 4), sorted by score,
 * best first, ties in generation order. The rules' numbers (tile values,
 * premiums, rack size, bingo bonus, centre) are handed over once by Python
 * through set_rules(), so they are decided in one place.
 *
 * DAWG layout (little-endian uint32): nodes[2 * n] = {info, first edge},
 * info = letter mask (bits 0-25) | terminal (bit 26); edges[first + k] is the
 * child for the k-th letter of the mask. Node 0 is "none", the root is node 1.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 15
#define SQUARES (SIZE * SIZE)
#define ALPHA 26
#define ALL ((1u << ALPHA) - 1)
#define TERMINAL (1u << ALPHA)
#define JOKER 26
#define MAXWORD SIZE
#define SLOT 16

static int VALUE[ALPHA];
static int LM[SQUARES], WM[SQUARES];
static int RACK = 7, BINGO = 50, CENTER_ROW = 7, CENTER_COL = 7;
static int rules_set = 0;

static inline int pop32(uint32_t x) {
#if defined(__POPCNT__)
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}

static inline uint32_t child_of(const uint32_t *nodes, const uint32_t *edges, uint32_t node, int code) {
    uint32_t info = nodes[2 * node], bit = 1u << code;
    if (!(info & bit)) return 0;
    return edges[nodes[2 * node + 1] + pop32(info & (bit - 1))];
}

/* ------------------------------------------------------------------------- */
/* Graph: a validated view of a DAWG held in any buffer (bytes, mmap).       */

typedef struct {
    PyObject_HEAD
    Py_buffer view;
    int has_view;
    const uint32_t *nodes, *edges;
    uint32_t n, e;
} Graph;

static void Graph_dealloc(Graph *self) {
    if (self->has_view) PyBuffer_Release(&self->view);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Graph_init(Graph *self, PyObject *args, PyObject *kwds) {
    PyObject *obj;
    Py_ssize_t offset, n, e;
    static char *kwlist[] = {"buffer", "offset", "node_count", "edge_count", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Onnn", kwlist, &obj, &offset, &n, &e)) return -1;
    if (self->has_view) { PyBuffer_Release(&self->view); self->has_view = 0; }
    if (PyObject_GetBuffer(obj, &self->view, PyBUF_SIMPLE) < 0) return -1;
    self->has_view = 1;
    if (offset < 0 || n < 2 || e < 0 || n > 0x7fffffff || e > 0x7fffffff ||
        (size_t)self->view.len < (size_t)offset + 8 * (size_t)n + 4 * (size_t)e) {
        PyErr_SetString(PyExc_ValueError, "DAWG tronqué");
        return -1;
    }
    const char *base = (const char *)self->view.buf + offset;
    if (((uintptr_t)base) % 4) {
        PyErr_SetString(PyExc_ValueError, "DAWG mal aligné");
        return -1;
    }
    const uint32_t *nodes = (const uint32_t *)base, *edges = nodes + 2 * n;
    /* Every index is checked once here, so the search never reads outside. */
    if (nodes[0] != 0) goto bad;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t info = nodes[2 * i], first = nodes[2 * i + 1];
        if (info & ~(ALL | TERMINAL)) goto bad;
        if ((uint64_t)first + pop32(info & ALL) > (uint64_t)e) goto bad;
    }
    for (Py_ssize_t i = 0; i < e; i++)
        if (edges[i] == 0 || edges[i] >= (uint32_t)n) goto bad;
    self->nodes = nodes;
    self->edges = edges;
    self->n = (uint32_t)n;
    self->e = (uint32_t)e;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "DAWG incohérent");
    return -1;
}

/* ------------------------------------------------------------------------- */
/* Move generation                                                           */

typedef struct {
    uint16_t *refs;
    int32_t *scores;
    char *words; /* SLOT bytes a move */
    uint8_t *info;
    Py_ssize_t count, cap;
    int failed;
} Out;

typedef struct {
    const uint32_t *nodes, *edges;
    int counts[27];
    int horizontal, row;
    signed char code[SIZE + 1];  /* letter of the grid tile, -1 on an empty square or past the edge */
    uint8_t freesq[SIZE + 1];    /* 1 on an empty square; 0 past the edge */
    int tval[SIZE];              /* value of the grid tile (0 for a joker) */
    uint32_t cross[SIZE + 1];    /* letters allowed by the cross word */
    int csum[SIZE];              /* value of the cross word's fixed tiles, -1 without one */
    int lm[SIZE], wm[SIZE];
    char cur[SIZE + 1];
    char prefix[SIZE + 1];
    int anchor, start;
    Out *out;
} Gen;

static int out_grow(Out *o) {
    Py_ssize_t cap = o->cap ? o->cap * 2 : 1024;
    uint16_t *r = realloc(o->refs, cap * sizeof *r);
    if (r) o->refs = r;
    int32_t *s = realloc(o->scores, cap * sizeof *s);
    if (s) o->scores = s;
    char *w = realloc(o->words, cap * SLOT);
    if (w) o->words = w;
    uint8_t *f = realloc(o->info, cap);
    if (f) o->info = f;
    if (!r || !s || !w || !f) { o->failed = 1; return -1; }
    o->cap = cap;
    return 0;
}

static void record(Gen *g, int end, int ms, int mult, int ct, int np, int nj) {
    Out *o = g->out;
    if (o->failed || (o->count == o->cap && out_grow(o) < 0)) return;
    Py_ssize_t k = o->count++;
    int row = g->horizontal ? g->row : g->start, col = g->horizontal ? g->start : g->row;
    o->refs[k] = (uint16_t)((g->horizontal ? 0 : SQUARES) + row * SIZE + col);
    o->scores[k] = ms * mult + ct + (np == RACK ? BINGO : 0);
    char *slot = o->words + k * SLOT;
    int len = end - g->start;
    memcpy(slot, g->cur + g->start, len);
    memset(slot + len, ' ', SLOT - len);
    o->info[k] = (uint8_t)(np | nj << 4);
}

static void extend_right(Gen *g, int c, uint32_t node, uint32_t rmask, int ms, int mult, int ct, int np,
                         int nj) {
    const uint32_t *nodes = g->nodes;
    if (c < SIZE && g->code[c] >= 0) { /* a tile already on the grid */
        uint32_t nxt = child_of(nodes, g->edges, node, g->code[c]);
        if (nxt) extend_right(g, c + 1, nxt, rmask, ms + g->tval[c], mult, ct, np, nj);
        return;
    }
    uint32_t info = nodes[2 * node];
    if (c > g->anchor && (info & TERMINAL) && c - g->start >= 2) record(g, c, ms, mult, ct, np, nj);
    if (c >= SIZE) return;
    int joker = g->counts[JOKER] > 0;
    uint32_t m = info & g->cross[c];
    if (!joker) m &= rmask;
    if (!m) return;
    int after = c + 1, after_free = g->freesq[after];
    uint32_t after_mask = after_free ? g->cross[after] : 0;
    const uint32_t *kids = g->edges + nodes[2 * node + 1];
    int lmc = g->lm[c], wmc = g->wm[c], cs = g->csum[c];
    while (m) {
        int code = __builtin_ctz(m);
        uint32_t bit = m & -m;
        m ^= bit;
        uint32_t nxt = kids[pop32(info & (bit - 1))];
        /* a dead end: nothing to record on the next square and no letter to add there */
        if (after_free && !(nodes[2 * nxt] & (TERMINAL | after_mask))) continue;
        if (g->counts[code]) {
            int v = VALUE[code] * lmc;
            g->counts[code]--;
            g->cur[c] = (char)('A' + code);
            extend_right(g, after, nxt, g->counts[code] ? rmask : rmask & ~bit, ms + v, mult * wmc,
                         cs >= 0 ? ct + (cs + v) * wmc : ct, np + 1, nj);
            g->counts[code]++;
        }
        if (joker) {
            g->counts[JOKER]--;
            g->cur[c] = (char)('a' + code);
            extend_right(g, after, nxt, rmask, ms, mult * wmc, cs >= 0 ? ct + cs * wmc : ct, np + 1, nj + 1);
            g->counts[JOKER]++;
        }
    }
    g->cur[c] = 0;
}

static void left_part(Gen *g, uint32_t node, int limit, uint32_t rmask, int plen) {
    const uint32_t *nodes = g->nodes;
    uint32_t info = nodes[2 * node];
    int anchor = g->anchor;
    if (info & g->cross[anchor] & (g->counts[JOKER] ? ALL : rmask)) {
        int start = anchor - plen, ms = 0, mult = 1, nj = 0;
        g->start = start;
        memcpy(g->cur + start, g->prefix, plen);
        /* squares of a left part have no neighbour, hence no cross word */
        for (int i = 0; i < plen; i++) {
            char t = g->prefix[i];
            if (t >= 'a') nj++;
            else ms += VALUE[t - 'A'] * g->lm[start + i];
            mult *= g->wm[start + i];
        }
        extend_right(g, anchor, node, rmask, ms, mult, 0, plen, nj);
    }
    if (limit == 0) return;
    int joker = g->counts[JOKER] > 0;
    uint32_t m = joker ? info & ALL : info & rmask;
    const uint32_t *kids = g->edges + nodes[2 * node + 1];
    while (m) {
        int code = __builtin_ctz(m);
        uint32_t bit = m & -m;
        m ^= bit;
        uint32_t nxt = kids[pop32(info & (bit - 1))];
        if (g->counts[code]) {
            g->counts[code]--;
            g->prefix[plen] = (char)('A' + code);
            left_part(g, nxt, limit - 1, g->counts[code] ? rmask : rmask & ~bit, plen + 1);
            g->counts[code]++;
        }
        if (joker) {
            g->counts[JOKER]--;
            g->prefix[plen] = (char)('a' + code);
            left_part(g, nxt, limit - 1, rmask, plen + 1);
            g->counts[JOKER]++;
        }
    }
}

static inline int tile_value(char t) { return t >= 'a' ? 0 : VALUE[t - 'A']; }
static inline int is_tile(char t) { return (t >= 'A' && t <= 'Z') || (t >= 'a' && t <= 'z'); }

static uint32_t walk(Gen *g, uint32_t node, const char *s, int len) {
    for (int i = 0; i < len && node; i++) node = child_of(g->nodes, g->edges, node, (s[i] | 32) - 'a');
    return node;
}

/* Every move whose main word lies on line r of grid (rows; columns when transposed). */
static void search_line(Gen *g, const char *grid, int r, int first, uint32_t rack_mask) {
    const char *line = grid + r * SIZE;
    int anchors[SIZE];
    g->row = r;
    for (int c = 0; c < SIZE; c++) {
        char t = line[c];
        g->code[c] = t ? (signed char)((t | 32) - 'a') : -1;
        g->freesq[c] = !t;
        g->tval[c] = t ? tile_value(t) : 0;
        int sq = g->horizontal ? r * SIZE + c : c * SIZE + r;
        g->lm[c] = LM[sq];
        g->wm[c] = WM[sq];
        g->cross[c] = ALL;
        g->csum[c] = -1;
        g->cur[c] = t;
        anchors[c] = 0;
    }
    g->code[SIZE] = -1;
    g->freesq[SIZE] = 0;
    g->cross[SIZE] = 0;
    g->cur[SIZE] = 0;
    if (first) {
        if (r == CENTER_ROW) anchors[CENTER_COL] = 1;
    } else {
        for (int c = 0; c < SIZE; c++) {
            if (line[c]) continue;
            int up = r > 0 && grid[(r - 1) * SIZE + c], down = r < SIZE - 1 && grid[(r + 1) * SIZE + c];
            int left = c > 0 && line[c - 1], right = c < SIZE - 1 && line[c + 1];
            if (!(up || down || left || right)) continue;
            anchors[c] = 1;
            if (!(up || down)) continue;
            char pre[SIZE], suf[SIZE];
            int np = 0, ns = 0, sum = 0;
            int rr = r - 1;
            while (rr >= 0 && grid[rr * SIZE + c]) rr--;
            for (rr = rr + 1; rr < r; rr++) { pre[np++] = grid[rr * SIZE + c]; sum += tile_value(grid[rr * SIZE + c]); }
            for (rr = r + 1; rr < SIZE && grid[rr * SIZE + c]; rr++) {
                suf[ns++] = grid[rr * SIZE + c];
                sum += tile_value(grid[rr * SIZE + c]);
            }
            g->csum[c] = sum;
            uint32_t node = walk(g, 1, pre, np), allowed = 0;
            if (node) {
                uint32_t info = g->nodes[2 * node], m = info & ALL;
                const uint32_t *kids = g->edges + g->nodes[2 * node + 1];
                int k = 0;
                while (m) {
                    uint32_t bit = m & -m;
                    m ^= bit;
                    uint32_t end = walk(g, kids[k++], suf, ns);
                    if (end && (g->nodes[2 * end] & TERMINAL)) allowed |= bit;
                }
            }
            g->cross[c] = allowed;
        }
    }
    for (int a = 0; a < SIZE; a++) {
        if (!anchors[a]) continue;
        g->anchor = a;
        if (a > 0 && line[a - 1]) {
            int start = a - 1;
            while (start > 0 && line[start - 1]) start--;
            uint32_t node = walk(g, 1, line + start, a - start);
            if (node) {
                int ms = 0;
                for (int c = start; c < a; c++) ms += g->tval[c];
                g->start = start;
                extend_right(g, a, node, rack_mask, ms, 1, 0, 0, 0);
            }
            continue;
        }
        int limit = 0, c = a - 1;
        while (c >= 0 && !line[c] && !anchors[c] && limit < RACK - 1) { limit++; c--; }
        left_part(g, 1, limit, rack_mask, 0);
    }
}

static PyObject *Graph_generate(Graph *self, PyObject *args) {
    const char *grid_in, *tirage;
    Py_ssize_t grid_len, tirage_len;
    if (!PyArg_ParseTuple(args, "y#y#", &grid_in, &grid_len, &tirage, &tirage_len)) return NULL;
    if (!rules_set) { PyErr_SetString(PyExc_RuntimeError, "set_rules() not called"); return NULL; }
    if (grid_len != SQUARES) { PyErr_SetString(PyExc_ValueError, "grille de 225 cases attendue"); return NULL; }
    char grid[SQUARES], tgrid[SQUARES];
    int first = 1;
    for (int i = 0; i < SQUARES; i++) {
        char t = grid_in[i];
        if (t == '.') t = 0;
        else if (!((t >= 'A' && t <= 'Z') || (t >= 'a' && t <= 'z'))) {
            PyErr_SetString(PyExc_ValueError, "grille non valable");
            return NULL;
        } else first = 0;
        grid[i] = t;
    }
    Gen g;
    memset(&g, 0, sizeof g);
    g.nodes = self->nodes;
    g.edges = self->edges;
    if (tirage_len > RACK) { PyErr_SetString(PyExc_ValueError, "tirage trop long"); return NULL; }
    for (Py_ssize_t i = 0; i < tirage_len; i++) {
        char t = tirage[i];
        if (t == '?') g.counts[JOKER]++;
        else if (t >= 'A' && t <= 'Z') g.counts[t - 'A']++;
        else { PyErr_SetString(PyExc_ValueError, "tirage non valable"); return NULL; }
    }
    uint32_t rack_mask = 0;
    for (int i = 0; i < ALPHA; i++)
        if (g.counts[i]) rack_mask |= 1u << i;
    Out out;
    memset(&out, 0, sizeof out);
    g.out = &out;

    Py_BEGIN_ALLOW_THREADS
    g.horizontal = 1;
    for (int r = 0; r < SIZE; r++) search_line(&g, grid, r, first, rack_mask);
    if (!first) {
        for (int r = 0; r < SIZE; r++)
            for (int c = 0; c < SIZE; c++) tgrid[c * SIZE + r] = grid[r * SIZE + c];
        g.horizontal = 0;
        for (int r = 0; r < SIZE; r++) search_line(&g, tgrid, r, 0, rack_mask);
    }
    Py_END_ALLOW_THREADS

    PyObject *result = NULL, *refs = NULL, *scores = NULL, *words = NULL, *info = NULL;
    Py_ssize_t n = out.count, *pos = NULL;
    if (out.failed) { PyErr_NoMemory(); goto done; }
    /* Stable counting sort, best score first: ties keep the generation order. */
    int32_t best = 0;
    for (Py_ssize_t k = 0; k < n; k++)
        if (out.scores[k] > best) best = out.scores[k];
    pos = calloc((size_t)best + 2, sizeof *pos);
    if (!pos) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t k = 0; k < n; k++) pos[out.scores[k]]++;
    Py_ssize_t acc = 0;
    for (int32_t s = best; s >= 0; s--) { Py_ssize_t cnt = pos[s]; pos[s] = acc; acc += cnt; }
    refs = PyBytes_FromStringAndSize(NULL, n * 2);
    scores = PyBytes_FromStringAndSize(NULL, n * 4);
    words = PyBytes_FromStringAndSize(NULL, n * SLOT);
    info = PyBytes_FromStringAndSize(NULL, n);
    if (!refs || !scores || !words || !info) goto done;
    uint16_t *rp = (uint16_t *)PyBytes_AS_STRING(refs);
    int32_t *sp = (int32_t *)PyBytes_AS_STRING(scores);
    char *wp = PyBytes_AS_STRING(words);
    uint8_t *ip = (uint8_t *)PyBytes_AS_STRING(info);
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t d = pos[out.scores[k]]++;
        rp[d] = out.refs[k];
        sp[d] = out.scores[k];
        memcpy(wp + d * SLOT, out.words + k * SLOT, SLOT);
        ip[d] = out.info[k];
    }
    result = PyTuple_Pack(4, refs, scores, words, info);
done:
    Py_XDECREF(refs);
    Py_XDECREF(scores);
    Py_XDECREF(words);
    Py_XDECREF(info);
    free(pos);
    free(out.refs);
    free(out.scores);
    free(out.words);
    free(out.info);
    return result;
}

static PyObject *Graph_get_n(Graph *self, void *closure) { return PyLong_FromUnsignedLong(self->n); }

static PyMethodDef Graph_methods[] = {
    {"generate", (PyCFunction)Graph_generate, METH_VARARGS,
     "generate(grid: bytes[225], tirage: bytes) -> (refs, scores, words, info), best score first"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Graph_getset[] = {
    {"node_count", (getter)Graph_get_n, NULL, "nodes, node 0 included", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject GraphType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine._core.Graph",
    .tp_doc = "Graph(buffer, offset, node_count, edge_count): a checked DAWG, for generate()",
    .tp_basicsize = sizeof(Graph),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Graph_init,
    .tp_dealloc = (destructor)Graph_dealloc,
    .tp_methods = Graph_methods,
    .tp_getset = Graph_getset,
};

/* ------------------------------------------------------------------------- */
/* expand(): a compact move's placed tiles and words, for building a Move.   */

static PyObject *core_expand(PyObject *mod, PyObject *args) {
    const char *grid, *word;
    Py_ssize_t grid_len, wlen;
    int refcode;
    if (!PyArg_ParseTuple(args, "y#is#", &grid, &grid_len, &refcode, &word, &wlen)) return NULL;
    if (grid_len != SQUARES || refcode < 0 || refcode >= 2 * SQUARES || wlen < 1) {
        PyErr_SetString(PyExc_ValueError, "coup compact non valable");
        return NULL;
    }
    int horizontal = refcode < SQUARES, sq0 = refcode % SQUARES;
    int row = sq0 / SIZE, col = sq0 % SIZE;
    int dr = horizontal ? 0 : 1, dc = horizontal ? 1 : 0;
    if ((horizontal ? col : row) + wlen > SIZE) {
        PyErr_SetString(PyExc_ValueError, "coup compact hors de la grille");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < wlen; i++)
        if (!is_tile(word[i])) { PyErr_SetString(PyExc_ValueError, "mot non valable"); return NULL; }
    for (int i = 0; i < SQUARES; i++)
        if (grid[i] != '.' && !is_tile(grid[i])) { PyErr_SetString(PyExc_ValueError, "grille non valable"); return NULL; }
    PyObject *placed = PyList_New(0), *crosses = PyList_New(0), *result = NULL;
    if (!placed || !crosses) goto done;
    int main_sum = 0, mult = 1;
    for (int i = 0; i < wlen; i++) {
        int r = row + dr * i, c = col + dc * i;
        char t = word[i];
        int v = tile_value(t);
        if (grid[r * SIZE + c] != '.') { main_sum += v; continue; }
        int lm = LM[r * SIZE + c], wm = WM[r * SIZE + c];
        v *= lm;
        main_sum += v;
        mult *= wm;
        /* the cross word through this square, perpendicular to the move */
        char text[SIZE + 1];
        int len = 0, sum = 0, rr = r, cc = c;
        while (rr - dc >= 0 && cc - dr >= 0 && grid[(rr - dc) * SIZE + (cc - dr)] != '.') { rr -= dc; cc -= dr; }
        for (; rr < SIZE && cc < SIZE; rr += dc, cc += dr) {
            char x = (rr == r && cc == c) ? t : grid[rr * SIZE + cc];
            if (x == '.') break;
            text[len++] = x;
            if (!(rr == r && cc == c)) sum += tile_value(x);
        }
        if (len >= 2) {
            PyObject *entry = Py_BuildValue("(s#i)", text, (Py_ssize_t)len, (sum + v) * wm);
            if (!entry || PyList_Append(crosses, entry) < 0) { Py_XDECREF(entry); goto done; }
            Py_DECREF(entry);
        }
        PyObject *p = Py_BuildValue("(iis#)", r, c, &word[i], (Py_ssize_t)1);
        if (!p || PyList_Append(placed, p) < 0) { Py_XDECREF(p); goto done; }
        Py_DECREF(p);
    }
    PyObject *main = Py_BuildValue("(s#i)", word, wlen, main_sum * mult);
    if (!main || PyList_Insert(crosses, 0, main) < 0) { Py_XDECREF(main); goto done; }
    Py_DECREF(main);
    PyObject *pt = PyList_AsTuple(placed), *wt = PyList_AsTuple(crosses);
    if (pt && wt) result = PyTuple_Pack(2, pt, wt);
    Py_XDECREF(pt);
    Py_XDECREF(wt);
done:
    Py_XDECREF(placed);
    Py_XDECREF(crosses);
    return result;
}

/* ------------------------------------------------------------------------- */
/* build(): Daciuk's incremental construction of the minimal DAWG.           */

typedef struct {
    uint8_t *term, *count;
    uint32_t *start;   /* into the edge pool */
    uint32_t n, cap;   /* frozen nodes; id 0 unused */
    uint8_t *plet;
    uint32_t *pchild;
    uint32_t pn, pcap;
    uint32_t *table;   /* register: open addressing on frozen ids */
    uint32_t tcap, tused;
} Builder;

static uint64_t node_hash(int term, int count, const uint8_t *let, const uint32_t *kid) {
    uint64_t h = 1469598103934665603ull ^ (uint64_t)(term * 31 + count);
    for (int i = 0; i < count; i++) {
        h = (h ^ let[i]) * 1099511628211ull;
        h = (h ^ kid[i]) * 1099511628211ull;
        h ^= h >> 29;
    }
    return h * 0x9e3779b97f4a7c15ull;
}

static int builder_rehash(Builder *b) {
    uint32_t cap = b->tcap ? b->tcap * 2 : 1u << 16;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t) return -1;
    for (uint32_t i = 0; i < b->tcap; i++) {
        uint32_t id = b->table[i];
        if (!id) continue;
        uint64_t h = node_hash(b->term[id], b->count[id], b->plet + b->start[id], b->pchild + b->start[id]);
        uint32_t j = (uint32_t)(h >> 32) & (cap - 1);
        while (t[j]) j = (j + 1) & (cap - 1);
        t[j] = id;
    }
    free(b->table);
    b->table = t;
    b->tcap = cap;
    return 0;
}

/* The frozen id of a node equal to (term, edges), registering it when new; 0 on failure. */
static uint32_t freeze(Builder *b, int term, int count, const uint8_t *let, const uint32_t *kid) {
    if ((b->tused + 1) * 2 > b->tcap && builder_rehash(b) < 0) return 0;
    uint64_t h = node_hash(term, count, let, kid);
    uint32_t j = (uint32_t)(h >> 32) & (b->tcap - 1);
    for (;;) {
        uint32_t id = b->table[j];
        if (!id) break;
        if (b->term[id] == term && b->count[id] == count &&
            !memcmp(b->plet + b->start[id], let, count) &&
            !memcmp(b->pchild + b->start[id], kid, count * sizeof *kid))
            return id;
        j = (j + 1) & (b->tcap - 1);
    }
    if (b->n + 1 >= b->cap) {
        uint32_t cap = b->cap ? b->cap * 2 : 1u << 15;
        uint8_t *t = realloc(b->term, cap), *c = realloc(b->count, cap);
        if (t) b->term = t;
        if (c) b->count = c;
        uint32_t *s = realloc(b->start, cap * sizeof *s);
        if (s) b->start = s;
        if (!t || !c || !s) return 0;
        b->cap = cap;
    }
    if (b->pn + count > b->pcap) {
        uint32_t cap = b->pcap ? b->pcap * 2 : 1u << 16;
        while (cap < b->pn + count) cap *= 2;
        uint8_t *l = realloc(b->plet, cap);
        if (l) b->plet = l;
        uint32_t *k = realloc(b->pchild, cap * sizeof *k);
        if (k) b->pchild = k;
        if (!l || !k) return 0;
        b->pcap = cap;
    }
    uint32_t id = ++b->n;
    b->term[id] = (uint8_t)term;
    b->count[id] = (uint8_t)count;
    b->start[id] = b->pn;
    memcpy(b->plet + b->pn, let, count);
    memcpy(b->pchild + b->pn, kid, count * sizeof *kid);
    b->pn += count;
    b->table[j] = id;
    b->tused++;
    return id;
}

typedef struct {
    int term, count;
    uint8_t let[ALPHA];
    uint32_t kid[ALPHA];
} OpenNode;

static PyObject *core_build(PyObject *mod, PyObject *args) {
    const char *text;
    Py_ssize_t len;
    int min_length;
    if (!PyArg_ParseTuple(args, "s#i", &text, &len, &min_length)) return NULL;
    Builder b;
    memset(&b, 0, sizeof b);
    OpenNode path[MAXWORD + 1];
    char prev[MAXWORD + 1];
    int prev_len = 0, ok = 1, nomem = 0;
    uint32_t words = 0, root = 0;
    uint32_t *ids = NULL, *order = NULL;
    PyObject *result = NULL;
    path[0].term = 0;
    path[0].count = 0;

    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t i = 0;
    while (i < len && ok) {
        Py_ssize_t j = i;
        while (j < len && text[j] != '\n') j++;
        int wl = (int)(j - i);
        const char *w = text + i;
        i = j + 1;
        if (wl == 0 && i >= len) break; /* the final newline */
        if (wl < min_length || wl > MAXWORD) { ok = 0; break; }
        for (int k = 0; k < wl; k++)
            if (w[k] < 'A' || w[k] > 'Z') { ok = 0; break; }
        if (!ok) break;
        int common = 0, lim = wl < prev_len ? wl : prev_len;
        while (common < lim && w[common] == prev[common]) common++;
        /* strictly increasing: the first differing letter is larger, or the previous is a prefix */
        if (words && !((common < lim && w[common] > prev[common]) || (common == prev_len && wl > prev_len))) {
            ok = 0;
            break;
        }
        for (int d = prev_len; d > common; d--) {
            uint32_t id = freeze(&b, path[d].term, path[d].count, path[d].let, path[d].kid);
            if (!id) { ok = 0; nomem = 1; break; }
            path[d - 1].kid[path[d - 1].count - 1] = id;
        }
        if (!ok) break;
        for (int d = common + 1; d <= wl; d++) {
            OpenNode *p = &path[d - 1];
            p->let[p->count] = (uint8_t)(w[d - 1] - 'A');
            p->kid[p->count] = 0;
            p->count++;
            path[d].term = 0;
            path[d].count = 0;
        }
        path[wl].term = 1;
        memcpy(prev, w, wl);
        prev_len = wl;
        words++;
    }
    if (ok) {
        for (int d = prev_len; d > 0 && ok; d--) {
            uint32_t id = freeze(&b, path[d].term, path[d].count, path[d].let, path[d].kid);
            if (!id) { ok = 0; nomem = 1; break; }
            path[d - 1].kid[path[d - 1].count - 1] = id;
        }
        if (ok) {
            root = freeze(&b, path[0].term, path[0].count, path[0].let, path[0].kid);
            if (!root) { ok = 0; nomem = 1; }
        }
    }
    if (ok) {
        ids = calloc((size_t)b.n + 1, sizeof *ids);
        order = malloc(((size_t)b.n + 1) * sizeof *order);
        if (!ids || !order) { ok = 0; nomem = 1; }
    }
    Py_END_ALLOW_THREADS

    if (!ok) {
        if (nomem) PyErr_NoMemory();
        else result = Py_NewRef(Py_None);
        goto done;
    }
    /* Breadth-first renumbering from the root (new id 1), children in letter order. */
    uint32_t count = 0;
    order[count++] = root;
    ids[root] = 1;
    uint32_t edges_total = 0;
    for (uint32_t q = 0; q < count; q++) {
        uint32_t id = order[q];
        edges_total += b.count[id];
        for (int k = 0; k < b.count[id]; k++) {
            uint32_t t = b.pchild[b.start[id] + k];
            if (!ids[t]) { ids[t] = count + 1; order[count++] = t; }
        }
    }
    uint32_t n = count + 1;
    PyObject *payload = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n * 8 + (Py_ssize_t)edges_total * 4);
    if (!payload) goto done;
    uint32_t *nodes = (uint32_t *)PyBytes_AS_STRING(payload), *edges = nodes + 2 * (size_t)n;
    nodes[0] = nodes[1] = 0;
    uint32_t off = 0;
    for (uint32_t q = 0; q < count; q++) {
        uint32_t id = order[q], mask = 0;
        for (int k = 0; k < b.count[id]; k++) {
            mask |= 1u << b.plet[b.start[id] + k];
            edges[off + k] = ids[b.pchild[b.start[id] + k]];
        }
        nodes[2 * (q + 1)] = mask | (b.term[id] ? TERMINAL : 0);
        nodes[2 * (q + 1) + 1] = off;
        off += b.count[id];
    }
    result = Py_BuildValue("(NIII)", payload, n, edges_total, words);
done:
    free(ids);
    free(order);
    free(b.term);
    free(b.count);
    free(b.start);
    free(b.plet);
    free(b.pchild);
    free(b.table);
    return result;
}

/* ------------------------------------------------------------------------- */

static PyObject *core_set_rules(PyObject *mod, PyObject *args) {
    const char *values, *lm, *wm;
    Py_ssize_t nv, nl, nw;
    int rack, bingo, crow, ccol;
    if (!PyArg_ParseTuple(args, "y#y#y#iiii", &values, &nv, &lm, &nl, &wm, &nw, &rack, &bingo, &crow, &ccol))
        return NULL;
    if (nv != ALPHA || nl != SQUARES || nw != SQUARES || rack < 1 || rack > 7 || crow < 0 || crow >= SIZE ||
        ccol < 0 || ccol >= SIZE) {
        PyErr_SetString(PyExc_ValueError, "règles non valables");
        return NULL;
    }
    for (int i = 0; i < ALPHA; i++) VALUE[i] = (unsigned char)values[i];
    for (int i = 0; i < SQUARES; i++) { LM[i] = (unsigned char)lm[i]; WM[i] = (unsigned char)wm[i]; }
    RACK = rack;
    BINGO = bingo;
    CENTER_ROW = crow;
    CENTER_COL = ccol;
    rules_set = 1;
    Py_RETURN_NONE;
}

static PyMethodDef core_methods[] = {
    {"set_rules", core_set_rules, METH_VARARGS,
     "set_rules(values[26], letter_mult[225], word_mult[225], rack, bingo, centre_row, centre_col)"},
    {"build", core_build, METH_VARARGS,
     "build(text, min_length) -> (payload, node_count, edge_count, word_count), or None when the text "
     "is not one sorted unique A-Z word a line"},
    {"expand", core_expand, METH_VARARGS, "expand(grid, refcode, word) -> (placed, words)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "engine._core", "Compiled move generator and DAWG compiler.", -1, core_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&GraphType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&GraphType);
    if (PyModule_AddObject(m, "Graph", (PyObject *)&GraphType) < 0) {
        Py_DECREF(&GraphType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
