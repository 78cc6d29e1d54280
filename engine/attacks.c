// SPDX-License-Identifier: GPL-3.0-or-later
// Builds the attack tables once at start-up.
#include "engine/attacks.h"

#include <pthread.h>

Bitboard attacks_knight_table[SQ_NB];
Bitboard attacks_king_table[SQ_NB];
Bitboard attacks_pawn_table[COLOR_NB][SQ_NB];
Bitboard attacks_between_table[SQ_NB][SQ_NB];
Bitboard attacks_line_table[SQ_NB][SQ_NB];
SliderEntry attacks_bishop_entries[SQ_NB];
SliderEntry attacks_rook_entries[SQ_NB];

// Fancy (variable-size) tables: 5248 bishop and 102400 rook slots in all.
static Bitboard bishop_slots[5248];
static Bitboard rook_slots[102400];

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

// Slow ray walk used only to fill the tables.
static Bitboard slide(Square s, Bitboard occ, const int dirs[4][2]) {
    Bitboard att = 0;
    for (int d = 0; d < 4; d++) {
        int f = square_file(s) + dirs[d][0], r = square_rank(s) + dirs[d][1];
        while (on_board(f, r)) {
            Square t = make_square(f, r);
            att |= bb_square(t);
            if (bb_has(occ, t))
                break;
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return att;
}

static Bitboard leaper(Square s, const int (*deltas)[2], int n) {
    Bitboard att = 0;
    for (int i = 0; i < n; i++) {
        int f = square_file(s) + deltas[i][0], r = square_rank(s) + deltas[i][1];
        if (on_board(f, r))
            att |= bb_square(make_square(f, r));
    }
    return att;
}

#if !defined(__BMI2__)
// Multipliers found once by the search below (same seed); stored so that
// start-up does not repeat a search that takes a noticeable fraction of a second.
static const Bitboard bishop_magics[SQ_NB] = {
    0x10102002004A1420ULL, 0x8020040400584008ULL, 0x10510800811201C8ULL,
    0x5204042080000088ULL, 0x2204106880000002ULL, 0x1401042004000000ULL,
    0x0400880410042004ULL, 0x0028208200A02020ULL, 0x1500241990010E00ULL,
    0x8001200182020A40ULL, 0x40004101030B0000ULL, 0x8002041042000100ULL,
    0x4010011041020038ULL, 0x0000010421044000ULL, 0x1500210808020A00ULL,
    0x8000088400880520ULL, 0x0405004010040100ULL, 0x1005823210040108ULL,
    0x2708008102040011ULL, 0x4048200404009100ULL, 0x0018104101400024ULL,
    0x0003000601190101ULL, 0x8004803108491000ULL, 0x8014241200820800ULL,
    0x0006E080100C3040ULL, 0x0501044A11041800ULL, 0x9020300008004045ULL,
    0x0894080000220040ULL, 0x1001010083104000ULL, 0x5004030040900080ULL,
    0x000400422C012400ULL, 0x0002128698404812ULL, 0x1010108404900440ULL,
    0x0928021182084100ULL, 0x2006080409020024ULL, 0x1010202020180080ULL,
    0xA010008200202200ULL, 0x2098015100019004ULL, 0x0002041440810811ULL,
    0x802A02020000B098ULL, 0x0009015090004060ULL, 0x4000821082081001ULL,
    0x0100210040420800ULL, 0x0800004010488A00ULL, 0x2000081104004040ULL,
    0x4C8E029015000082ULL, 0x0420340322224842ULL, 0x1298260043400210ULL,
    0x0000822802400008ULL, 0x00008A0101600000ULL, 0x3040003412080021ULL,
    0x3040290220884800ULL, 0x4A1500401041004AULL, 0x8010200282020781ULL,
    0x0020203142209091ULL, 0x0070300600902110ULL, 0x0040808800B62048ULL,
    0x0000810400C44420ULL, 0x00080400440C0441ULL, 0x8340080020840411ULL,
    0x0000000104208200ULL, 0x0000800810D00080ULL, 0x0400530411080200ULL,
    0x4040702400932244ULL,
};
static const Bitboard rook_magics[SQ_NB] = {
    0x1080004008801020ULL, 0x0840092002C03000ULL, 0x1900200010400900ULL,
    0x0880100008000480ULL, 0x4200100420080200ULL, 0x8100020100080400ULL,
    0x0200040110886200ULL, 0x0200008040220411ULL, 0x0404800084400220ULL,
    0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000A001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL,
    0x0442000102105084ULL, 0x9080010020804100ULL, 0x0040404000201009ULL,
    0x0000808010002009ULL, 0x2200090021D00100ULL, 0x0008008008040080ULL,
    0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000A0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL,
    0x1000100080080080ULL, 0x0442000A00049020ULL, 0x2100040080020080ULL,
    0x0800120400900148ULL, 0x0010040A00128541ULL, 0x2800804000800030ULL,
    0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xC100020080800400ULL, 0x0002000802000401ULL,
    0x0182085882000401ULL, 0x0220204000808000ULL, 0x2860100040024022ULL,
    0x0001002004110040ULL, 0x99101042000A0020ULL, 0x0004080004008080ULL,
    0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040A00300ULL,
    0x0801100280080480ULL, 0x0242009008200600ULL, 0x1002000489500200ULL,
    0x0040800200010080ULL, 0x0091800041000080ULL, 0x0000209300488001ULL,
    0x04C1002414824001ULL, 0x020020000B001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084C0007ULL, 0x0888221800813004ULL,
    0x4000002840840112ULL,
};

// A fixed-seed xorshift generator, so that magic search is reproducible.
static uint64_t rng_next(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 2685821657736338717ULL;
}
#endif

// Enumerates every subset of the mask (Carry-Rippler), fills the slice of the
// table and, without BMI2, searches a magic multiplier that maps each subset
// to a slot without destructive collisions.
static void init_slider(SliderEntry *entries, Bitboard *slots, const int dirs[4][2],
                        const Bitboard *known_magics) {
    static Bitboard occupancy[4096], reference[4096];
#if !defined(__BMI2__)
    static int epoch[4096];
    int cur_epoch = 0;
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
#endif
    Bitboard *next = slots;

    for (Square s = 0; s < SQ_NB; s++) {
        SliderEntry *e = &entries[s];
        Bitboard edges = ((BB_RANK_1 | BB_RANK_8) & ~bb_rank(square_rank(s))) |
                         ((BB_FILE_A | BB_FILE_H) & ~bb_file(square_file(s)));
        e->mask = slide(s, 0, dirs) & ~edges;
        e->shift = 64 - (unsigned)bb_count(e->mask);
        e->table = next;
        int size = 0;
        Bitboard sub = 0;
        do {
            occupancy[size] = sub;
            reference[size] = slide(s, sub, dirs);
            size++;
            sub = (sub - e->mask) & e->mask;
        } while (sub);
        next += size;

#if defined(__BMI2__)
        (void)known_magics;
        for (int i = 0; i < size; i++)
            e->table[_pext_u64(occupancy[i], e->mask)] = reference[i];
#else
        for (int attempt = 0;; attempt++) {
            if (attempt == 0) {
                e->magic = known_magics[s];
            } else {
                do {
                    e->magic = rng_next(&seed) & rng_next(&seed) & rng_next(&seed);
                } while (bb_count((e->mask * e->magic) >> 56) < 6);
            }
            cur_epoch++;
            int i;
            for (i = 0; i < size; i++) {
                unsigned idx = slider_index(e, occupancy[i]);
                if (epoch[idx] < cur_epoch) {
                    epoch[idx] = cur_epoch;
                    e->table[idx] = reference[i];
                } else if (e->table[idx] != reference[i]) {
                    break;
                }
            }
            if (i == size)
                break;
        }
#endif
    }
}

static void init_tables(void) {
    static const int knight_d[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                       {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king_d[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1},
                                     {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int wpawn_d[2][2] = {{-1, 1}, {1, 1}};
    static const int bpawn_d[2][2] = {{-1, -1}, {1, -1}};

    for (Square s = 0; s < SQ_NB; s++) {
        attacks_knight_table[s] = leaper(s, knight_d, 8);
        attacks_king_table[s] = leaper(s, king_d, 8);
        attacks_pawn_table[WHITE][s] = leaper(s, wpawn_d, 2);
        attacks_pawn_table[BLACK][s] = leaper(s, bpawn_d, 2);
    }
#if defined(__BMI2__)
    init_slider(attacks_bishop_entries, bishop_slots, bishop_dirs, NULL);
    init_slider(attacks_rook_entries, rook_slots, rook_dirs, NULL);
#else
    init_slider(attacks_bishop_entries, bishop_slots, bishop_dirs, bishop_magics);
    init_slider(attacks_rook_entries, rook_slots, rook_dirs, rook_magics);
#endif

    for (Square a = 0; a < SQ_NB; a++) {
        for (Square b = 0; b < SQ_NB; b++) {
            attacks_between_table[a][b] = 0;
            attacks_line_table[a][b] = 0;
            if (a == b)
                continue;
            Bitboard bb = bb_square(b);
            if (slide(a, 0, rook_dirs) & bb) {
                attacks_line_table[a][b] =
                    (slide(a, 0, rook_dirs) & slide(b, 0, rook_dirs)) | bb_square(a) | bb;
                attacks_between_table[a][b] = slide(a, bb, rook_dirs) & slide(b, bb_square(a), rook_dirs);
            } else if (slide(a, 0, bishop_dirs) & bb) {
                attacks_line_table[a][b] =
                    (slide(a, 0, bishop_dirs) & slide(b, 0, bishop_dirs)) | bb_square(a) | bb;
                attacks_between_table[a][b] =
                    slide(a, bb, bishop_dirs) & slide(b, bb_square(a), bishop_dirs);
            }
        }
    }
}

void attacks_init(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init_tables);
}
