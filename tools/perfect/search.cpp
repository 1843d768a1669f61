// Exhaustive search for a minimum-total decision tree of a 1A2B code space (digits 0..K-1, length L,
// with or without repeats): the strategy that needs the fewest guesses summed over every secret.
//
//   g++ -O2 -std=c++17 -o search search.cpp
//   ./search K L R [part]      R = 0 (no repeats) or 1; part = only the subtree under that first
//                              feedback (packed A*(L+1)+B) is searched; writes the tree to stdout
//   ./search K L R openings    the values of every set two guesses leave (see `openings`)
//   ./search K L R sets        optimal subtrees of the sets given on stdin (see `solve_sets`;
//                              tools/perfect/strong.py)
//
// Method: depth-first branch and bound. cost(S) = |S| + min over guesses g of the sum of cost(part)
// over the parts of S by feedback to g (the part that g itself wins is not counted again).
// - Lower bound of a set of n codes: an ideal tree in which every node wins one code and splits the
//   rest into at most B parts (B = the number of non-winning feedbacks): 1 code at depth 1, B at
//   depth 2, B^2 at depth 3 ... A guess is skipped when |S| + the bounds of its parts cannot beat the
//   best guess found so far. A guess's parts are searched smallest first, each with the budget the
//   others leave: the small ones are solved exactly (cheap), so the big one is searched with the slack
//   of their bounds already used up and a guess that cannot win is refuted with a tight budget
//   (largest first, as until 2026-12-02, took 761 s for the 720 codes of 1A1B; smallest first, 6 s).
// - Symmetry: the renamings of digits and positions that fix every guess made so far fix the set of
//   candidates, so only one guess per orbit is tried (digits never guessed are interchangeable; the
//   other digits and the positions are tried through the at most L! position permutations that
//   extend to such a renaming). And per set: digits that no code of the set holds score neither A nor B,
//   so guesses that differ only in which of those digits they use split the set alike; one of them is
//   scanned (the colour equivalence of widmaN/mastermind-strategy's notes, doc/optimal.tex).
// - Memo: every set of 3+ codes searched, by a 128-bit hash of its sorted indices: its exact cost and
//   best guess, or the lower bound a failed (over budget) search proved.
// Output (stdout): the tree in preorder, one guess per node whose set has 2+ codes ("0123"); the
// children of a node follow in ascending packed feedback, parts of one code are left out (their guess
// is that code). Progress and figures go to stderr.
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <cstring>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

using namespace std;
typedef vector<uint16_t> Set;

static int K, L, R, N, NF, WIN, B;
static vector<array<int8_t, 8>> codes;  // digits per code
static vector<uint8_t> FB;               // N*N feedback
static vector<int> lbtab;                // ideal lower bound by size
static vector<int> lookup;               // radix value -> index
static long long nodes = 0;

static inline uint8_t fb(int g, int c) { return FB[(size_t)g * N + c]; }

struct Key {
  uint64_t a, b;
  bool operator==(const Key& o) const { return a == o.a && b == o.b; }
};
struct KeyHash {
  size_t operator()(const Key& k) const { return k.a ^ (k.b * 0x9E3779B97F4A7C15ULL); }
};
struct Entry {
  int32_t value;  // exact cost, or a lower bound
  int16_t guess;  // best guess when exact
  bool exact;
  uint16_t n;  // the set's size: what eviction looks at
};
static unordered_map<Key, Entry, KeyHash> memo;

// The memo is a cache, so it may forget: past MEMO_CAP entries (env, default 60 million, about 4 GiB)
// the entries of the smallest sets (cheapest to find again) go first, until it is half full. Without a
// bound the two biggest parts of the 4-digit search grew past 8 GiB.
static size_t memo_cap = 60000000;
static void evict() {
  size_t before = memo.size();
  for (int t = 3; memo.size() > memo_cap / 2; t = t * 3 / 2 + 1)
    for (auto it = memo.begin(); it != memo.end();)
      it = it->second.n <= t ? memo.erase(it) : std::next(it);
  fprintf(stderr, "  memo evicted: %zu -> %zu entries\n", before, memo.size());
}

static Key key_of(const Set& s) {
  uint64_t a = 1469598103934665603ULL, b = 0x12345678ABCDEFULL;
  for (uint16_t x : s) {
    a = (a ^ x) * 1099511628211ULL;
    b = (b + x + 1) * 0xC2B2AE3D27D4EB4FULL;
    b ^= b >> 29;
  }
  return {a ^ s.size(), b};
}

static int lb(int n) { return lbtab[n]; }

// ---------------------------------------------------------------- symmetry: the guess pool
static vector<vector<int>> posperms;
struct Pool {
  vector<uint16_t> list;
  vector<char> mask;
};
// The pools by history, shared: a node holds its pool while its children run, and the cache is
// dropped whole past POOL_CAP entries (a pool is about 15 KB: unbounded, the histories of the big
// 4-digit parts filled 5 GB within minutes). A history that fixes no symmetry gets the full pool.
static unordered_map<Key, shared_ptr<const Pool>, KeyHash> pools;
static size_t POOL_CAP = 100000;  // `sets` mode: by the space's size (a Logik pool is about 100 KB)
static shared_ptr<const Pool> full_pool;

static int index_of(const int8_t* d) {
  int v = 0;
  for (int i = 0; i < L; i++) v = v * K + d[i];
  return lookup[v];
}

static shared_ptr<const Pool> pool_for(const vector<uint16_t>& hist) {
  vector<uint16_t> h(hist);
  sort(h.begin(), h.end());
  h.erase(unique(h.begin(), h.end()), h.end());
  Key k = key_of(h);
  auto it = pools.find(k);
  if (it != pools.end()) return it->second;
  if (pools.size() >= POOL_CAP) pools.clear();
  bool used[16] = {false};
  for (uint16_t g : h)
    for (int i = 0; i < L; i++) used[codes[g][i]] = true;
  vector<int> freed;
  for (int d = 0; d < K; d++)
    if (!used[d]) freed.push_back(d);
  // the renamings of used digits that, with a position permutation, fix every guess
  vector<pair<int, array<int8_t, 16>>> group;
  for (int p = 0; p < (int)posperms.size(); p++) {
    const vector<int>& pi = posperms[p];
    array<int8_t, 16> delta;
    delta.fill(-1);
    bool ok = true;
    for (uint16_t g : h) {
      for (int i = 0; i < L && ok; i++) {
        int from = codes[g][i], to = codes[g][pi[i]];
        if (delta[from] == -1) delta[from] = to;
        else if (delta[from] != to) ok = false;
      }
      if (!ok) break;
    }
    if (!ok) continue;
    bool seen[16] = {false};
    for (int d = 0; d < K && ok; d++)
      if (delta[d] != -1) {
        if (seen[delta[d]]) ok = false;
        seen[delta[d]] = true;
      }
    if (ok) group.push_back({p, delta});
  }
  if (group.size() == 1 && freed.size() <= 1) {  // only the identity, no free digits to rename
    if (!full_pool) {
      Pool all{vector<uint16_t>(N), vector<char>(N, 1)};
      for (int c = 0; c < N; c++) all.list[c] = (uint16_t)c;
      full_pool = make_shared<const Pool>(all);
    }
    return full_pool;
  }
  auto canon_free = [&](int8_t* d) {
    int8_t map[16];
    memset(map, -1, sizeof map);
    int next = 0;
    for (int i = 0; i < L; i++) {
      int x = d[i];
      if (used[x]) continue;
      if (map[x] == -1) map[x] = freed[next++];
      d[i] = map[x];
    }
  };
  vector<uint16_t> pool;
  for (int c = 0; c < N; c++) {
    int8_t d[8];
    for (int i = 0; i < L; i++) d[i] = codes[c][i];
    canon_free(d);
    if (index_of(d) != c) continue;
    bool best = true;
    for (auto& e : group) {
      const vector<int>& pi = posperms[e.first];
      int8_t t[8];
      for (int i = 0; i < L; i++) {
        int x = codes[c][i];
        t[pi[i]] = used[x] ? e.second[x] : x;
      }
      canon_free(t);
      if (index_of(t) < c) { best = false; break; }
    }
    if (best) pool.push_back((uint16_t)c);
  }
  Pool made{pool, vector<char>(N, 0)};
  for (uint16_t c : pool) made.mask[c] = 1;
  auto shared = make_shared<const Pool>(made);
  pools.emplace(k, shared);
  return shared;
}

// ---------------------------------------------------------------- the search
struct Cand {
  int bound, parts;
  bool is_cand;
  uint16_t g;
};

static int solve(const Set& S, vector<uint16_t>& hist, int ub);

static void split(const Set& S, uint16_t g, vector<Set>& parts) {
  int cnt[64] = {0};
  for (uint16_t c : S) cnt[fb(g, c)]++;
  parts.clear();
  int slot[64];
  for (int f = 0; f < NF; f++) {
    slot[f] = -1;
    if (cnt[f] && f != WIN) {
      slot[f] = parts.size();
      parts.emplace_back();
      parts.back().reserve(cnt[f]);
    }
  }
  for (uint16_t c : S) {
    int f = fb(g, c);
    if (slot[f] >= 0) parts[slot[f]].push_back(c);
  }
}


static vector<uint16_t> dmask;  // the digits of each code, as a bit mask
static vector<unsigned> keystamp;  // by key: the call of distinct_on that last met it
static unsigned keygen = 0;

// The guesses of `in` that split S differently: the first of those alike but for digits S lacks.
static void distinct_on(const Set& S, const vector<uint16_t>& in, vector<uint16_t>& out) {
  unsigned present = 0;
  for (uint16_t c : S) present |= dmask[c];
  out.clear();
  ++keygen;
  for (uint16_t g : in) {
    unsigned key = 0;  // the guess with each missing digit written 15
    for (int i = 0; i < L; i++) {
      int d = codes[g][i];
      key = key * 16 + ((present >> d & 1) ? d : 15);
    }
    if (keystamp[key] == keygen) continue;
    keystamp[key] = keygen;
    out.push_back(g);
  }
}

static int COLUMNS = 24;  // sets this large are scanned code by code over the whole pool
static vector<int> nclb;        // a bound for a guess that is not a candidate, by set size
static vector<unsigned> inset;  // the codes of the set being scanned (see mark)

static unsigned gen = 0;
static void mark(const Set& S) {  // inset[c] == gen: c is in S (valid until the next mark)
  ++gen;
  for (uint16_t c : S) inset[c] = gen;
}

static inline void add(int n, int bound, int parts, int biggest, bool is_cand, uint16_t g, int ub, int& lo,
                       vector<Cand>& out) {
  if (biggest == n) return;  // learns nothing
  lo = min(lo, bound);
  if (bound >= ub) return;   // can never come under the budget
  out.push_back({bound, parts, is_cand, g});
}

static void scan(const Set& S, uint16_t g, bool is_cand, int ub, int& lo, vector<Cand>& out) {
  int cnt[64] = {0}, touched[64], nt = 0, n = S.size();
  const uint8_t* row = &FB[(size_t)g * N];
  for (uint16_t c : S) {
    int f = row[c];
    if (cnt[f]++ == 0) touched[nt++] = f;
  }
  int bound = n, biggest = 0, parts = 0;
  for (int i = 0; i < nt; i++) {
    int f = touched[i], m = cnt[f];
    if (f == WIN) continue;
    bound += lbtab[m];
    parts++;
    biggest = max(biggest, m);
  }
  add(n, bound, parts, biggest, is_cand, g, ub, lo, out);
}

static void scan_columns(const Set& S, const vector<uint16_t>& list, int ub, int& lo, vector<Cand>& out) {
  static vector<uint16_t> cnt;  // guesses × feedback counts (feedback is symmetric: row c = column c)
  size_t P = list.size(), n = S.size();
  cnt.assign(P * NF, 0);
  for (uint16_t c : S) {
    const uint8_t* row = &FB[(size_t)c * N];
    uint16_t* q = cnt.data();
    for (size_t i = 0; i < P; i++, q += NF) q[row[list[i]]]++;
  }
  const uint16_t* q = cnt.data();
  for (size_t i = 0; i < P; i++, q += NF) {
    uint16_t g = list[i];
    if (inset[g] == gen) continue;
    int bound = n, biggest = 0, parts = 0;
    for (int f = 0; f < NF; f++)
      if (q[f] && f != WIN) bound += lbtab[q[f]], parts++, biggest = max(biggest, (int)q[f]);
    add(n, bound, parts, biggest, false, g, ub, lo, out);
  }
}

// cost of S if < ub (exact), else a lower bound >= ub
static int solve(const Set& S, vector<uint16_t>& hist, int ub) {
  int n = S.size();
  if (n == 1) return 1;
  if (n == 2) return 3;
  int lo = lb(n);
  if (lo >= ub) return lo;
  Key k = key_of(S);
  auto it = memo.find(k);
  if (it != memo.end()) {
    if (it->second.exact) return it->second.value;
    if (it->second.value >= ub) return it->second.value;
    lo = max(lo, it->second.value);
  }
  if ((++nodes & ((1 << 20) - 1)) == 0)
    fprintf(stderr, "  … %lld nodes, memo %zu, at a set of %d codes\n", nodes, memo.size(), n);
  const shared_ptr<const Pool> held = pool_for(hist);
  const Pool& pool = *held;
  // Candidates first (n·n work): a set is often settled by one of its own codes, since no other guess
  // can beat the bound `nc` (every part a hit-less ideal split) — then the rest of the pool is never scanned.
  vector<Cand> cands;
  cands.reserve(64);
  int lo_c = INT32_MAX;
  for (uint16_t g : S)
    if (pool.mask[g]) scan(S, g, true, ub, lo_c, cands);
  int nc = nclb[n];
  auto by_bound = [](const Cand& a, const Cand& b) {
    if (a.bound != b.bound) return a.bound < b.bound;
    if (a.is_cand != b.is_cand) return a.is_cand;
    if (a.parts != b.parts) return a.parts > b.parts;
    return a.g < b.g;
  };
  sort(cands.begin(), cands.end(), by_bound);
  lo = max(lo, min(lo_c, nc));
  bool scanned = false;  // the other guesses of the pool
  int best = ub, bestg = -1;
  int proven = INT32_MAX;  // the smallest lower bound of a guess over budget
  vector<Set> parts;
  for (size_t i = 0;; i++) {
    if (!scanned && (i == cands.size() || cands[i].bound >= nc)) {
      scanned = true;
      if (nc < best) {
        int lo_o = INT32_MAX;
        size_t had = cands.size();
        mark(S);
        vector<uint16_t> guesses;
        distinct_on(S, pool.list, guesses);
        if (n >= COLUMNS) scan_columns(S, guesses, ub, lo_o, cands);
        else
          for (uint16_t g : guesses)
            if (inset[g] != gen) scan(S, g, false, ub, lo_o, cands);
        if (cands.size() > had) sort(cands.begin() + i, cands.end(), by_bound);
        int lo_all = min(lo_c, lo_o);
        if (lo_all != INT32_MAX) lo = max(lo, lo_all);
      }
    }
    if (i >= cands.size()) break;
    const Cand& c = cands[i];
    if (c.bound >= best) {
      proven = min(proven, c.bound);
      break;
    }
    split(S, c.g, parts);
    sort(parts.begin(), parts.end(), [](const Set& a, const Set& b) { return a.size() < b.size(); });
    int total = n, rest = 0;
    for (auto& p : parts) rest += lb(p.size());
    bool over = false;
    hist.push_back(c.g);
    for (auto& p : parts) {
      rest -= lb(p.size());
      int budget = best - total - rest;
      int v = solve(p, hist, budget);
      total += v;
      if (v >= budget) {
        over = true;
        break;
      }
    }
    hist.pop_back();
    if (over) {
      proven = min(proven, total + rest);
      continue;
    }
    best = total;
    bestg = c.g;
    if (best <= lo) break;
  }
  if (memo.size() >= memo_cap) evict();
  Entry& e = memo[k];
  if (bestg >= 0) {
    e = {best, (int16_t)bestg, true, (uint16_t)n};
    return best;
  }
  int bound = max(lo, proven == INT32_MAX ? ub : proven);
  bound = max(bound, ub);
  e = {bound, -1, false, (uint16_t)n};
  return bound;
}


// ---------------------------------------------------------------- output
static bool by_index = false;  // `sets` mode: codes are written as their index
static string text(int c) {
  if (by_index) return to_string(c);
  string s;
  for (int i = 0; i < L; i++) s += char('0' + codes[c][i]);
  return s;
}

static int depth_sum = 0, worst = 0;
static void emit(const Set& S, vector<uint16_t>& hist, int depth, FILE* out) {
  int n = S.size();
  if (n == 1) {
    depth_sum += depth;
    worst = max(worst, depth);
    return;
  }
  int g;
  if (n == 2) {
    g = S[0];
  } else {
    auto it = memo.find(key_of(S));
    if (it == memo.end() || !it->second.exact) {
      solve(S, hist, INT32_MAX);
      it = memo.find(key_of(S));
    }
    g = it->second.guess;
  }
  fprintf(out, "%s\n", text(g).c_str());
  bool hit = false;
  for (uint16_t c : S) hit |= (c == g);
  if (hit) {
    depth_sum += depth;
    worst = max(worst, depth);
  }
  vector<Set> parts;
  split(S, g, parts);  // ascending feedback
  hist.push_back(g);
  for (auto& p : parts) emit(p, hist, depth + 1, out);
  hist.pop_back();
}

// `search K L R sets`: optimal subtrees of given sets (tools/perfect/strong.py). Reads one set per line
// from stdin, "h1 h2 ... : c1 c2 ... [< ub]": the indices (codes in lexicographic order, as the engine numbers
// them) of the guesses made so far, which fix the symmetry, then the set's codes, which must be exactly
// the codes consistent with those guesses' feedback (so every renaming that fixes the guesses fixes the
// set), and optionally a bound: only a subtree needing fewer guesses in all is wanted (a strategy
// at hand needs ub; the search then mostly proves that nothing beats it, which is much faster).
// Writes per set its optimal subtree (the preorder of the output below, codes as indices) and a line
// "= <value> <most guesses for one code>", or only "= -1 0" when no subtree beats the bound. The
// memo is shared by all the sets: a set's value does not depend on its history.
static int solve_sets(chrono::steady_clock::time_point t0) {
  by_index = true;
  POOL_CAP = max<size_t>(1000, (size_t)1500000000 / (3 * (size_t)N));
  // a guess's row of the feedback table is 32 KB in Logik (1 GiB in all): scanned guess by guess, a
  // small set costs a cache miss per code and guess (77 % of the time); the set's own rows, read
  // along the pool, are read in order
  if (N > 10000) COLUMNS = 3;
  char* line = nullptr;
  size_t cap = 0;
  int done = 0;
  long long sum = 0;
  while (getline(&line, &cap, stdin) > 0) {
    vector<uint16_t> hist;
    Set S;
    bool after = false;
    int ub = INT32_MAX;
    for (char* p = strtok(line, " \t\n"); p; p = strtok(nullptr, " \t\n")) {
      if (strcmp(p, ":") == 0) after = true;
      else if (strcmp(p, "<") == 0) {
        p = strtok(nullptr, " \t\n");
        if (p) ub = atoi(p);
      } else (after ? S : hist).push_back((uint16_t)atoi(p));
    }
    if (!after) continue;
    sort(S.begin(), S.end());
    int v = solve(S, hist, ub);
    if (v >= ub) {  // nothing better than the bound: no subtree
      fprintf(stdout, "= -1 0\n");
      fflush(stdout);
      ++done;
      continue;
    }
    depth_sum = 0, worst = 0;
    emit(S, hist, 1, stdout);
    if (depth_sum != v) {
      fprintf(stderr, "search: the subtree written needs %d guesses, its value is %d\n", depth_sum, v);
      return 1;
    }
    fprintf(stdout, "= %d %d\n", v, worst);
    fflush(stdout);
    sum += v;
    if (++done % 100 == 0) {
      double secs = chrono::duration<double>(chrono::steady_clock::now() - t0).count();
      fprintf(stderr, "  … %d sets (%.1f s, %lld nodes, memo %zu)\n", done, secs, nodes, memo.size());
    }
  }
  free(line);
  double secs = chrono::duration<double>(chrono::steady_clock::now() - t0).count();
  fprintf(stderr, "sets: %d solved, value %lld (%.1f s, %lld nodes, memo %zu)\n", done, sum, secs, nodes, memo.size());
  return 0;
}

// The value and best guess of every set of 3+ codes that two guesses can leave: the first guess, then
// each second guess (one per orbit of the renamings that fix the first), one line per set:
// "second first-feedback second-feedback value best" (what /analyse needs to price a player's
// second guess exactly: core/solver/perfect.py, Openings).
static void openings(const Set& all, uint16_t first) {
  vector<uint16_t> hist{first};
  const shared_ptr<const Pool> held = pool_for(hist);
  vector<Set> firsts, seconds;
  split(all, first, firsts);
  auto t0 = chrono::steady_clock::now();
  size_t done = 0;
  for (uint16_t g : held->list) {
    if (g == first) continue;
    hist.push_back(g);
    for (auto& s1 : firsts) {
      split(s1, g, seconds);
      for (auto& s2 : seconds) {
        if (s2.size() < 3) continue;
        int v = solve(s2, hist, INT32_MAX);
        const Entry& e = memo.at(key_of(s2));
        printf("%s %d %d %d %s\n", text(g).c_str(), fb(first, s2[0]), fb(g, s2[0]), v, text(e.guess).c_str());
      }
    }
    hist.pop_back();
    double secs = chrono::duration<double>(chrono::steady_clock::now() - t0).count();
    fprintf(stderr, "second guess %s (%zu of %zu): %.1f s, %lld nodes, memo %zu\n", text(g).c_str(), ++done,
            held->list.size() - 1, secs, nodes, memo.size());
  }
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: search K L R [part|openings|sets]\n");
    return 2;
  }
  K = atoi(argv[1]), L = atoi(argv[2]), R = atoi(argv[3]);
  if (K < 2 || K > 15 || L < 1 || L > 6) {
    fprintf(stderr, "search: 2..15 digits, length 1..6\n");
    return 2;
  }
  keystamp.assign((size_t)1 << (4 * L), 0);
  string mode = argc > 4 ? argv[4] : "";
  bool sets = mode == "sets", opening = mode == "openings";
  int only = argc > 4 && !sets && !opening ? atoi(argv[4]) : -1;
  if (const char* cap = getenv("MEMO_CAP")) memo_cap = strtoull(cap, nullptr, 10);

  int pw = 1;
  for (int i = 0; i < L; i++) pw *= K;
  lookup.assign(pw, -1);
  for (int v = 0; v < pw; v++) {
    array<int8_t, 8> d{};
    int x = v;
    for (int i = L - 1; i >= 0; i--) d[i] = x % K, x /= K;
    bool ok = true;
    if (!R)
      for (int i = 0; i < L; i++)
        for (int j = 0; j < i; j++) ok &= d[i] != d[j];
    if (ok) lookup[v] = codes.size(), codes.push_back(d);
  }
  N = codes.size();
  for (auto& c : codes) {
    uint16_t m = 0;
    for (int i = 0; i < L; i++) m |= 1 << c[i];
    dmask.push_back(m);
  }
  NF = (L + 1) * (L + 1);
  WIN = L * (L + 1);
  FB.resize((size_t)N * N);
  vector<char> seen(NF, 0);
  for (int g = 0; g < N; g++)
    for (int c = 0; c < N; c++) {
      int a = 0, t = 0, cg[16] = {0}, cc[16] = {0};
      for (int i = 0; i < L; i++) a += codes[g][i] == codes[c][i], cg[codes[g][i]]++, cc[codes[c][i]]++;
      for (int d = 0; d < K; d++) t += min(cg[d], cc[d]);
      int f = a * (L + 1) + (t - a);
      FB[(size_t)g * N + c] = f;
      seen[f] = 1;
    }
  B = 0;
  for (int f = 0; f < NF; f++) B += seen[f] && f != WIN;
  lbtab.assign(N + 1, 0);
  for (int n = 1; n <= N; n++) {  // ideal tree: 1 at depth 1, B at depth 2, B^2 at depth 3 ...
    long long left = n, cap = 1, total = 0;
    for (int d = 1; left > 0; d++, cap *= B) {
      long long take = min(left, cap);
      total += take * d;
      left -= take;
    }
    lbtab[n] = total;
  }
  nclb.assign(N + 1, 0);  // a guess that is not a candidate: n + the ideal bounds of B equal parts
  for (int n = 1; n <= N; n++) {
    int q = n / B, r = n % B;
    nclb[n] = n + r * lbtab[q + 1] + (B - r) * lbtab[q];
  }
  inset.assign(N, 0);
  vector<int> pi(L);
  iota(pi.begin(), pi.end(), 0);
  do posperms.push_back(pi);
  while (next_permutation(pi.begin(), pi.end()));

  auto t0 = chrono::steady_clock::now();
  if (sets) return solve_sets(t0);
  Set all(N);
  iota(all.begin(), all.end(), 0);
  vector<uint16_t> hist;
  const vector<uint16_t> root = pool_for(hist)->list;
  fprintf(stderr, "space K=%d L=%d repeats=%d: %d codes, %d non-winning feedbacks, %zu first guesses\n",
          K, L, R, N, B, root.size());
  if (opening) {
    openings(all, root[0]);
    return 0;
  }
  int best = INT32_MAX, bestg = -1;
  for (uint16_t g : root) {
    if (only >= 0 && g != root[0]) continue;
    vector<Set> parts;
    split(all, g, parts);
    int total = N;
    bool hitwin = false;
    for (uint16_t c : all) hitwin |= fb(g, c) == WIN;
    (void)hitwin;
    hist.push_back(g);
    for (auto& p : parts) {
      int f = fb(g, p[0]);
      if (only >= 0 && f != only) continue;
      int v = solve(p, hist, INT32_MAX);
      double secs = chrono::duration<double>(chrono::steady_clock::now() - t0).count();
      fprintf(stderr, "first %s feedback %d%c%d: %zu codes, cost %d (%.1f s, %lld nodes, memo %zu)\n",
              text(g).c_str(), f / (L + 1), 'A', f % (L + 1), p.size(), v, secs, nodes, memo.size());
      total += v;
    }
    hist.pop_back();
    fprintf(stderr, "first guess %s: total %d\n", text(g).c_str(), total);
    if (total < best) best = total, bestg = g;
  }
  double secs = chrono::duration<double>(chrono::steady_clock::now() - t0).count();
  if (only >= 0) {
    // one part only: its subtree (the first guess is given)
    vector<Set> parts;
    split(all, bestg, parts);
    hist.push_back(bestg);
    for (auto& p : parts)
      if (fb(bestg, p[0]) == only) emit(p, hist, 2, stdout);
    fprintf(stderr, "part %d: %.1f s\n", only, secs);
    return 0;
  }
  fprintf(stderr, "optimum %d / %d = %.4f (search %.1f s, %lld nodes)\n", best, N, (double)best / N, secs, nodes);
  hist.clear();
  depth_sum = 0, worst = 0;
  // the root: emit with the chosen first guess
  fprintf(stdout, "%s\n", text(bestg).c_str());
  depth_sum = 1, worst = 1;
  vector<Set> parts;
  split(all, bestg, parts);
  hist.push_back(bestg);
  for (auto& p : parts) emit(p, hist, 2, stdout);
  fprintf(stderr, "tree: total %d, worst %d\n", depth_sum, worst);
  return 0;
}
