// SPDX-License-Identifier: GPL-3.0-or-later
// The PGN game model: accessors, deep copies, null moves, cursors across them
// and the setters that edit comments and NAGs.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/fen.h"
#include "engine/movegen.h"
#include "src/pgn/pgn.h"
#include "src/pgn/cursor.h"
#include "src/pgn/database.h"
#include "tests/helpers.h"
#include "tests/pgn_helpers.h"

Test(pgn_game, clear_and_accessors) {
    PgnGame *g = pgn_game_new();
    cr_assert_str_eq(pgn_result(g), "*");
    cr_assert_str_eq(pgn_start_fen(g), BOARD_START_FEN);
    cr_assert(pgn_set_tag(g, "Result", "1-0"));
    cr_assert_str_eq(pgn_result(g), "1-0");
    pgn_set_result(g, "bogus");
    cr_assert_str_eq(pgn_result(g), "1-0");
    Board b;
    board_set_start(&b);
    Move m;
    char err[160];
    cr_assert_eq(notation_parse_move(&b, "e4", &m, err, sizeof err), NOTATION_OK);
    cr_assert(pgn_append_move(g, m, "e4", 5000, "first"));
    cr_assert_eq(pgn_mainline_move(g, 0), m);
    cr_assert_eq(pgn_mainline_move(g, 1), MOVE_NONE);
    cr_assert_eq(pgn_mainline_move(g, -1), MOVE_NONE);
    cr_assert_str_eq(pgn_mainline_comment(g, 0), "first");
    pgn_game_clear(g);
    cr_assert_eq(pgn_mainline_length(g), 0);
    cr_assert_eq(pgn_tag_count(g), 0);
    cr_assert_str_eq(pgn_result(g), "*");
    cr_assert(pgn_set_start_fen(g, "8/8/8/8/8/8/8/8 w - - 0 1", err, sizeof err) == false);
    cr_assert(pgn_set_start_fen(g, BOARD_START_FEN, err, sizeof err));
    cr_assert_null(pgn_tag(g, "FEN")); // the standard position needs no tags
    pgn_game_free(g);
    pgn_game_free(NULL);
}

// ------------------------------------------------------------------ clone

// Every node and string of a's tree lives somewhere else in b.
static void assert_shares_nothing(const PgnNode *a, const PgnNode *b) {
    for (; a && b; a = a->next, b = b->next) {
        cr_assert_neq(a, b);
        cr_assert(!a->pre || a->pre != b->pre);
        cr_assert(!a->comment || a->comment != b->comment);
        cr_assert(!a->trail || a->trail != b->trail);
        for (const PgnNode *va = a->variation, *vb = b->variation; va && vb;
             va = va->next_variation, vb = vb->next_variation)
            assert_shares_nothing(va, vb);
    }
}

Test(pgn_game, clone_is_deep_and_independent) {
    static const char *files[] = { "annotated.pgn", "setup.pgn", "canonical.pgn" };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        Games gs;
        read_file(files[f], &gs);
        cr_assert_eq(gs.errors, 0);
        for (int i = 0; i < gs.n; i++) {
            PgnGame *g = gs.g[i];
            PgnGame *c = pgn_game_clone(g);
            cr_assert_not_null(c);
            assert_same_game(g, c);
            assert_shares_nothing(pgn_first(g), pgn_first(c));
            cr_assert_eq(pgn_mainline_length(c), pgn_mainline_length(g));
            for (int p = 0; p < pgn_mainline_length(g); p++)
                cr_assert_eq(pgn_mainline_move(c, p), pgn_mainline_move(g, p));
            char *before = pgn_write_string(g, NULL);
            char *copied = pgn_write_string(c, NULL);
            cr_assert_str_eq(copied, before);
            // Changing or freeing the original leaves the clone as it was.
            if (pgn_mainline_length(g) > 0) {
                cr_assert(pgn_mainline_append_comment(g, 0, "changed"));
                cr_assert(pgn_mainline_add_nag(g, 0, 4));
            }
            cr_assert(pgn_set_tag(g, "Event", "changed"));
            pgn_game_free(g);
            gs.g[i] = NULL;
            char *after = pgn_write_string(c, NULL);
            cr_assert_str_eq(after, before);
            // The clone goes on from the end of its main line.
            Board end;
            cr_assert(pgn_position_at(c, pgn_mainline_length(c), &end));
            MoveList list;
            movegen_legal(&end, &list);
            if (list.count > 0)
                cr_assert(pgn_append_move(c, list.moves[0], NULL, -1, NULL));
            free(before);
            free(copied);
            free(after);
            pgn_game_free(c);
        }
    }
}

// Every node of the line from n on knows its parent: the move before it; an
// alternative has the parent of the move it replaces. Counts the nodes.
static int check_parents(const PgnNode *n, const PgnNode *parent) {
    int count = 0;
    for (; n; parent = n, n = n->next) {
        cr_assert_eq(n->parent, parent, "%s: parent %s, not %s", n->san,
                     n->parent ? n->parent->san : "(start)", parent ? parent->san : "(start)");
        count++;
        for (const PgnNode *v = n->variation; v; v = v->next_variation)
            count += check_parents(v, parent);
    }
    return count;
}

Test(pgn_game, nodes_know_their_parents_after_reading_cloning_and_editing) {
    static const char *files[] = { "annotated.pgn", "setup.pgn", "canonical.pgn",
                                   "null_moves.pgn" };
    int total = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        Games gs;
        read_file(files[f], &gs);
        for (int i = 0; i < gs.n; i++) {
            PgnGame *g = gs.g[i];
            int nodes = check_parents(pgn_first(g), NULL);
            total += nodes;
            PgnGame *c = pgn_game_clone(g);
            cr_assert_not_null(c);
            cr_expect_eq(check_parents(pgn_first(c), NULL), nodes, "the clone's");
            // Moves added as a continuation, a variation, a main-line variation.
            int len = pgn_mainline_length(c);
            if (len >= 2 && pgn_mainline_move(c, len - 1) != MOVE_NULL) {
                Board before;
                cr_assert(pgn_position_at(c, len - 1, &before));
                MoveList list;
                movegen_legal(&before, &list);
                for (int k = 0; k < list.count && k < 3; k++)
                    if (list.moves[k] != pgn_mainline_move(c, len - 1))
                        cr_assert_not_null(pgn_add_move_after(c, pgn_mainline_node(c, len - 2),
                                                              list.moves[k], &before));
                Move alt[1] = {list.moves[0]};
                if (alt[0] != pgn_mainline_move(c, len - 1))
                    cr_assert(pgn_mainline_add_variation(c, len - 1, alt, 1, NULL));
            }
            Board end;
            if (pgn_position_at(c, pgn_mainline_length(c), &end)) {
                MoveList list;
                movegen_legal(&end, &list);
                if (list.count > 0)
                    cr_assert(pgn_append_move(c, list.moves[0], NULL, -1, NULL));
            }
            check_parents(pgn_first(c), NULL);
            pgn_game_free(c);
        }
        free_games(&gs);
    }
    cr_expect_gt(total, 100, "%d nodes checked", total);
}

Test(pgn_game, clone_of_an_empty_game) {
    PgnGame *g = pgn_game_new();
    cr_assert_not_null(g);
    PgnGame *c = pgn_game_clone(g);
    cr_assert_not_null(c);
    cr_assert_eq(pgn_mainline_length(c), 0);
    cr_assert_null(pgn_first(c));
    cr_assert_str_eq(pgn_result(c), "*");
    pgn_game_free(g);
    pgn_game_free(c);
}

// ------------------------------------------------------------------ null moves

static char *fen_at(const PgnGame *g, int ply) {
    static char fen[FEN_MAX];
    Board *b = malloc(sizeof *b);
    cr_assert_not_null(b);
    cr_assert(pgn_position_at(g, ply, b));
    board_to_fen(b, fen, sizeof fen);
    free(b);
    return fen;
}

Test(pgn_null, both_forms_in_main_line_and_variations) {
    Games gs;
    read_file("null_moves.pgn", &gs);
    cr_assert_eq(gs.n, 2);
    cr_assert_eq(gs.errors, 1); // game 3: a null move in check
    const PgnGame *g = gs.g[0];
    cr_assert_eq(pgn_mainline_length(g), 10);
    // "4. Z0" and "5. --" in the main line, both kept as "--".
    for (int ply = 6; ply <= 8; ply += 2) {
        cr_assert_eq(pgn_mainline_move(g, ply), MOVE_NULL);
        cr_assert_str_eq(pgn_mainline_san(g, ply), "--");
    }
    // "(2. -- {...} Nc6 3. Nf3)": a variation that starts with a null move.
    const PgnNode *v = pgn_mainline_node(g, 2)->variation;
    cr_assert_not_null(v);
    cr_assert_eq(v->move, MOVE_NULL);
    cr_assert_str_eq(v->san, "--");
    cr_assert_str_eq(v->comment, "What does Black do?");
    cr_assert_str_eq(v->next->san, "Nc6");
    cr_assert_str_eq(v->next->next->san, "Nf3");
    // A null move nested in a variation of a variation.
    const PgnGame *g2 = gs.g[1];
    const PgnNode *kf7 = pgn_mainline_node(g2, 5)->variation;
    cr_assert_str_eq(kf7->san, "Kf7");
    cr_assert_eq(kf7->next->move, MOVE_NULL);
    cr_assert_str_eq(kf7->next->variation->san, "d4");
    cr_assert_str_eq(kf7->next->next->san, "Ke6");
    free_games(&gs);
}

Test(pgn_null, passes_the_turn_and_clears_en_passant) {
    Games gs;
    read_file("null_moves.pgn", &gs);
    const PgnGame *g = gs.g[1];
    // After 2... f5 White could take en passant; after 3. -- it is Black's
    // move and the chance is gone.
    cr_assert_str_eq(fen_at(g, 4), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    cr_assert_str_eq(fen_at(g, 5), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3");
    cr_assert_str_eq(fen_at(g, 7),
                     "r1bqkbnr/ppp1p1pp/2n5/3pPp2/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 4");
    free_games(&gs);
}

Test(pgn_null, in_check_is_an_error_with_its_position) {
    Games gs;
    read_file("null_moves.pgn", &gs);
    cr_assert_eq(gs.errors, 1);
    cr_assert_eq(gs.err[0].line, 31);
    cr_assert_eq(gs.err[0].column, 18);
    cr_assert_str_eq(gs.err[0].message, "game 3: null move '--' at move 2 (Black) while in check");
    free_games(&gs);
}

Test(pgn_null, round_trip_keeps_tree_and_text) {
    Games a, b;
    read_file("null_moves.pgn", &a);
    char *text = write_all(&a);
    static const char *const written[] = { "(2.\n-- {What does Black do?} 2... Nc6 3. Nf3)",
                                           "4. -- (4. Ba4 Nf6)", "5. -- d5 *" };
    for (int i = 0; i < 3; i++)
        cr_assert_not_null(strstr(text, written[i]), "no '%s' in\n%s", written[i], text);
    cr_assert_not_null(strstr(text,
                              "\n1. e4 d5 2. e5 f5 3. -- Nc6 (3... Kf7 4. -- (4. d4) 4... Ke6) "
                              "4. d4 1-0\n"),
                       "%s", text);
    read_text(text, &b);
    cr_assert_eq(b.errors, 0, "%s", b.err[0].message);
    cr_assert_eq(b.n, a.n);
    for (int i = 0; i < a.n; i++)
        assert_same_game(a.g[i], b.g[i]);
    char *again = write_all(&b);
    cr_assert_str_eq(again, text);
    // The clone keeps them too.
    PgnGame *c = pgn_game_clone(a.g[0]);
    char *cloned = pgn_write_string(c, NULL);
    char *orig = pgn_write_string(a.g[0], NULL);
    cr_assert_str_eq(cloned, orig);
    free(cloned);
    free(orig);
    pgn_game_free(c);
    free(again);
    free(text);
    free_games(&a);
    free_games(&b);
}

Test(pgn_null, validation_agrees_and_no_one_plays_a_null_move) {
    char path[PATH_MAX_LEN], err[256];
    data_path("null_moves.pgn", path, sizeof path);
    PgnReader *r = pgn_reader_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    PgnSummary s;
    cr_assert_eq(pgn_reader_validate(r, &s, NULL), 1);
    cr_assert_eq(s.plies, 10);
    cr_assert_str_eq(s.final_fen,
                     "r1bqkb1r/1pp2ppp/p1n2n2/1B1pp3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 6");
    cr_assert_eq(pgn_reader_validate(r, &s, NULL), 1);
    cr_assert_eq(pgn_reader_validate(r, &s, NULL), -1);
    cr_assert_eq(pgn_reader_validate(r, &s, NULL), 0);
    pgn_reader_close(r);

    PgnGame *g = pgn_game_new();
    Board *b = malloc(sizeof *b);
    cr_assert(g && b);
    board_set_start(b);
    cr_assert_not(pgn_append_move(g, MOVE_NULL, NULL, -1, NULL));
    cr_assert_null(pgn_add_move_after(g, NULL, MOVE_NULL, b));
    cr_assert_eq(pgn_mainline_length(g), 0);
    free(b);
    pgn_game_free(g);
}

Test(pgn_null, accepted_by_pgn_extract) {
    const char *tool = access("/usr/games/pgn-extract", X_OK) == 0 ? "/usr/games/pgn-extract"
                       : access("/usr/bin/pgn-extract", X_OK) == 0 ? "/usr/bin/pgn-extract"
                                                                   : NULL;
    if (!tool)
        cr_skip_test("pgn-extract is not installed");
    Games gs;
    read_file("null_moves.pgn", &gs);
    char *ours = write_all(&gs);
    char path[256];
    int fd = test_temp_file(path, sizeof path, "test_pgn_null");
    FILE *f = fdopen(fd, "w");
    cr_assert(f && fputs(ours, f) >= 0);
    cr_assert_eq(fclose(f), 0);
    // pgn-extract reads null moves in the main line only when told to.
    char cmd[PATH_MAX_LEN * 3], outpath[PATH_MAX_LEN], errpath[PATH_MAX_LEN];
    snprintf(outpath, sizeof outpath, "%s.out", path);
    snprintf(errpath, sizeof errpath, "%s.err", path);
    snprintf(cmd, sizeof cmd, "%s --allownullmoves -s --quiet %s >%s 2>%s", tool, path, outpath,
             errpath);
    cr_assert_eq(system(cmd), 0);
    char *errs = slurp(errpath), *theirs = slurp(outpath);
    cr_assert_str_eq(errs, "", "pgn-extract complained:\n%s", errs);
    // The same move text, whatever the line breaks and the blanks in braces.
    char *a = ours, *b = theirs;
    for (;;) {
        while (*a == ' ' || *a == '\n')
            a++;
        while (*b == ' ' || *b == '\n')
            b++;
        if (!*a || !*b)
            break;
        cr_assert_eq(*a, *b, "ours: ...%.40s\ntheirs: ...%.40s", a, b);
        a++;
        b++;
    }
    cr_assert(!*a && !*b, "ours: ...%.40s\ntheirs: ...%.40s", a, b);
    free(errs);
    free(theirs);
    free(ours);
    unlink(path);
    unlink(outpath);
    unlink(errpath);
    free_games(&gs);
}

// Navigation in a game document (src/pgn/cursor.c) across null moves.
static const char *cursor_fen(const PgnCursor *r, int ply) {
    static char fen[FEN_MAX];
    Board *b = malloc(sizeof *b);
    cr_assert_not_null(b);
    cr_assert(pgn_cursor_position(r, ply, b));
    board_to_fen(b, fen, sizeof fen);
    free(b);
    return fen;
}

static Move move_in(const char *fen, const char *san) {
    Board *b = malloc(sizeof *b);
    cr_assert_not_null(b);
    cr_assert(board_set_fen(b, fen, NULL, 0));
    Move m = MOVE_NONE;
    char err[160];
    cr_assert_eq(notation_parse_move(b, san, &m, err, sizeof err), NOTATION_OK, "%s", err);
    free(b);
    return m;
}

Test(pgn_cursor, navigation_across_null_moves) {
    char path[PATH_MAX_LEN], err[512];
    data_path("null_moves.pgn", path, sizeof path);
    PgnGame *doc = pgn_db_read_game(path, 2, NULL, err, sizeof err);
    cr_assert_not_null(doc, "%s", err);
    PgnCursor *r = pgn_cursor_new(doc);
    cr_assert_not_null(r);
    cr_assert_eq(pgn_cursor_length(r), 7);
    // Stepping over "3. --": the side to move flips and en passant is gone.
    cr_assert(pgn_cursor_set_ply(r, 4));
    cr_assert_eq(pgn_cursor_segment_start(r), 0);
    cr_assert_str_eq(cursor_fen(r, 4),
                     "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    cr_assert(pgn_cursor_set_ply(r, 5));
    cr_assert_eq(pgn_cursor_line_node(r, 4)->move, MOVE_NULL);
    cr_assert_eq(pgn_cursor_segment_start(r), 5);
    const char *after_null = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3";
    cr_assert_str_eq(cursor_fen(r, 5), after_null);
    cr_assert(pgn_cursor_set_ply(r, 7));
    cr_assert_eq(pgn_cursor_segment_start(r), 5);
    cr_assert(pgn_cursor_set_ply(r, 2));
    cr_assert_eq(pgn_cursor_segment_start(r), 0);

    // Into the variation "3... Kf7 4. -- (4. d4) 4... Ke6" and its null move.
    cr_assert(pgn_cursor_set_ply(r, 5));
    cr_assert_eq(pgn_cursor_variation_count(r), 1);
    cr_assert(pgn_cursor_enter_variation(r, 1));
    cr_assert_str_eq(pgn_cursor_line_node(r, 5)->san, "Kf7");
    cr_assert(pgn_cursor_set_ply(r, 7));
    cr_assert_eq(pgn_cursor_line_node(r, 6)->move, MOVE_NULL);
    cr_assert_eq(pgn_cursor_segment_start(r), 7);
    cr_assert_str_eq(pgn_cursor_line_node(r, 7)->san, "Ke6");
    cr_assert_str_eq(cursor_fen(r, 7), "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQ - 3 4");

    // A move played on the board after the null move follows the line from
    // there: an existing move is found, a new one becomes a variation.
    Move ke6 = move_in(cursor_fen(r, 7), "Ke6");
    cr_assert(pgn_cursor_follow(r, &ke6, 1));
    cr_assert_eq(pgn_cursor_ply(r), 8);
    cr_assert_str_eq(pgn_cursor_line_node(r, 7)->san, "Ke6");
    cr_assert(pgn_cursor_set_ply(r, 7));
    Move kg6 = move_in(cursor_fen(r, 7), "Kg6");
    cr_assert(pgn_cursor_follow(r, &kg6, 1));
    cr_assert_eq(pgn_cursor_ply(r), 8);
    cr_assert_str_eq(pgn_cursor_line_node(r, 7)->san, "Kg6");
    const PgnNode *kg6_node = pgn_cursor_line_node(r, 7);
    cr_assert_str_eq(pgn_cursor_line_node(r, 6)->next->san, "Ke6");
    cr_assert_str_eq(pgn_cursor_line_node(r, 6)->next->variation->san, "Kg6");

    // Out of the new variation, then back to the main line at the branch point.
    cr_assert(pgn_cursor_leave_variation(r));
    cr_assert_eq(pgn_cursor_ply(r), 7);
    cr_assert_str_eq(pgn_cursor_line_node(r, 7)->san, "Ke6");
    cr_assert(pgn_cursor_leave_variation(r));
    cr_assert_eq(pgn_cursor_ply(r), 5);
    cr_assert_str_eq(pgn_cursor_line_node(r, 5)->san, "Nc6");
    // Any node of the document, found by its parents.
    cr_assert(pgn_cursor_set_ply(r, 0));
    cr_assert(pgn_cursor_goto_node(r, kg6_node));
    cr_assert_eq(pgn_cursor_ply(r), 8);
    cr_assert_str_eq(pgn_cursor_line_node(r, 5)->san, "Kf7");
    PgnGame *other = pgn_game_clone(doc);
    cr_assert_not(pgn_cursor_goto_node(r, pgn_first(other)), "a node of another game");
    pgn_game_free(other);
    pgn_cursor_free(r);
    pgn_game_free(doc);
}

// Editing a tree: comments, NAGs and the opening comment, written back.
Test(pgn, setters_edit_comments_and_nags) {
    Games gs;
    read_text("[Result \"*\"]\n\n1. e4 $14 e5 (1... c5 {Sicilian}) 2. Nf3 *\n", &gs);
    cr_assert_eq(gs.n, 1);
    PgnGame *g = gs.g[0];
    const PgnNode *e4 = pgn_first(g), *c5 = e4->next->variation;
    cr_assert(pgn_node_set_nag(g, e4, 6));
    cr_assert(pgn_node_set_nag(g, e4, 2)); // an assessment replaces ?!
    cr_expect_eq(e4->nag_count, 2);
    cr_expect_eq(e4->nags[0], 2, "the assessment first");
    cr_expect_eq(e4->nags[1], 14, "the position NAG kept");
    cr_assert(pgn_node_set_nag(g, e4, 2));
    cr_expect_eq(e4->nag_count, 2, "the same NAG again changes nothing");
    cr_expect_not(pgn_node_set_nag(g, e4, 256));
    cr_assert(pgn_node_set_comment(g, c5, "  Najdorf   to come "));
    cr_expect_str_eq(c5->comment, "Najdorf to come");
    cr_assert(pgn_node_set_comment(g, e4->next, "The reply"));
    cr_assert(pgn_set_lead_comment(g, "Before it all"));
    char *text = write_all(&gs);
    for (char *p = text; *p; p++)
        if (*p == '\n')
            *p = ' '; // the writer wraps lines
    cr_expect(strstr(text, "{Before it all} 1. e4 $2 $14 e5 {The reply} (1... c5 {Najdorf to "
                           "come}) 2. Nf3 *"),
              "%s", text);
    free(text);
    cr_assert(pgn_node_set_comment(g, c5, "   "));
    cr_expect_null(c5->comment, "a blank comment removes it");
    cr_assert(pgn_node_set_comment(g, e4->next, NULL));
    cr_expect_null(e4->next->comment);
    cr_assert(pgn_node_set_nag(g, e4, 0));
    cr_expect_eq(e4->nag_count, 0, "0 clears them");
    cr_assert(pgn_set_lead_comment(g, NULL));
    cr_expect_null(e4->pre);
    free_games(&gs);
    // A game without moves keeps its comment as the lead comment.
    read_text("[Result \"*\"]\n\n*\n", &gs);
    cr_assert(pgn_set_lead_comment(gs.g[0], "Nothing yet"));
    cr_expect_str_eq(pgn_lead_comment(gs.g[0]), "Nothing yet");
    free_games(&gs);
}

// Visits every node of the line from n on and its variations.
static void goto_each(PgnCursor *c, const PgnNode *n, int *count) {
    for (; n; n = n->next) {
        cr_assert(pgn_cursor_goto_node(c, n), "%s at ply %d", n->san, n->ply);
        cr_assert_eq(pgn_cursor_ply(c), n->ply + 1);
        cr_assert_eq(pgn_cursor_line_node(c, n->ply), n);
        for (int p = 1; p <= n->ply; p++)
            cr_assert_eq(pgn_cursor_line_node(c, p)->parent, pgn_cursor_line_node(c, p - 1));
        (*count)++;
        for (const PgnNode *v = n->variation; v; v = v->next_variation)
            goto_each(c, v, count);
    }
}

Test(pgn_cursor, every_node_of_every_variation_can_be_gone_to) {
    static const char *files[] = { "annotated.pgn", "canonical.pgn", "null_moves.pgn" };
    int count = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        Games gs;
        read_file(files[f], &gs);
        for (int i = 0; i < gs.n; i++) {
            PgnCursor *c = pgn_cursor_new(gs.g[i]);
            cr_assert_not_null(c);
            goto_each(c, pgn_first(gs.g[i]), &count);
            pgn_cursor_free(c);
        }
        free_games(&gs);
    }
    cr_expect_gt(count, 100, "%d nodes", count);
}
