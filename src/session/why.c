// SPDX-License-Identifier: GPL-3.0-or-later
// `why`: the explanation of the last move of the game shown, from searches of
// an engine of the session's own (the game's may be thinking or analysing).
#include <stdlib.h>
#include <string.h>

#include "engine/fen.h"
#include "src/coach/explain.h"
#include "src/session/session_int.h"

// Deep enough to see the tactics a player misses, short enough to answer
// at once: three or four searches of this.
static const ExplainOptions WHY_SEARCH = { .depth = 12, .nodes = 600000 };

// The position before the game's last move.
static bool position_before_last(const Game *g, Board *b) {
    const char *fen = game_settings(g)->start_fen;
    if (!board_set_fen(b, fen[0] ? fen : BOARD_START_FEN, NULL, 0))
        return false;
    for (int i = 0; i + 1 < game_ply_count(g); i++)
        board_play(b, game_move(g, i)->move);
    return true;
}

void why_command(Session *s) {
    const Game *g = session_game(s);
    int n = g ? game_ply_count(g) : 0;
    if (n == 0) {
        session_say(s, MSG_ERROR, "No move to explain yet: why explains the last move played.");
        return;
    }
    Board *before = malloc(sizeof *before);
    Explanation *x = malloc(sizeof *x);
    if (!s->coach)
        s->coach = engine_new();
    if (!before || !x || !s->coach || !position_before_last(g, before)) {
        session_say(s, MSG_ERROR, "Cannot explain the move (out of memory).");
        free(before);
        free(x);
        return;
    }
    // The built-in engine's evaluation, as it is now (its options may have changed).
    netfile_attach(&s->coach_net, s->coach, s->think.engine);
    explain_move(s->coach, before, game_keys(g), n - 1, game_move(g, n - 1)->move, &WHY_SEARCH, x);
    char title[64];
    session_last_move_text(g, n, title, sizeof title);
    char *text = malloc(strlen(x->text) + sizeof title + 16);
    if (text) {
        strcpy(text, "Why ");
        strcat(text, title);
        strcat(text, "\n");
        strcat(text, x->text);
        session_say_text(s, MSG_TEXT, text);
        free(text);
    }
    s->why_move = x->shown;
    s->why_key = game_board(g)->key;
    session_changed(s);
    free(before);
    free(x);
}
