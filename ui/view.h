// SPDX-License-Identifier: GPL-3.0-or-later
// Drawing the game: the board, the side panel (players and clocks, the move
// list, the engine's thinking, material and opening) and the status line,
// from a plain description of what to show. Nothing here knows the game
// controller; the caller fills a UiView and calls ui_view_draw.
#ifndef UI_VIEW_H
#define UI_VIEW_H

#include "engine/board.h"
#include "engine/notation.h"
#include "ui/movetree.h"

enum { UI_NAME_MAX = 48, UI_PV_MAX = 512, UI_STATUS_MAX = 256, UI_MAX_LINES = 5,
       UI_LINE_PV_MAX = 200, UI_GRAPH_MAX = 1024, UI_GRAPH_MARKS = 3 };

// One line of a multi-line (MultiPV) analysis.
typedef struct UiLine {
    int depth;
    int score_white, mate_white;   // as in UiThinking
    char pv_san[UI_LINE_PV_MAX];
} UiLine;

typedef struct UiPlayerView {
    char name[UI_NAME_MAX];   // "You", "patzer"
    char detail[UI_NAME_MAX]; // "level 10 (~1500)", "human"
    bool has_clock;
    long long clock_ms; // time left; negative when the flag fell
    bool running;       // this clock is ticking
    bool flagged;
    bool low_time;      // below the low-time mark: the clock is drawn as a warning
} UiPlayerView;

typedef struct UiThinking {
    bool shown;  // anything to show
    bool active; // the engine is thinking now
    int depth, seldepth;
    int score_white; // centipawns from White's view (when mate == 0)
    int mate_white;  // mate in N from White's view: >0 White mates, <0 Black mates
    unsigned long long nodes, nps;
    char pv_san[UI_PV_MAX]; // "12. Nf3 Nc6 13. Bb5" already in SAN with numbers
    // Analysis mode: the heading says so, an evaluation bar is drawn, and
    // with more than one line each line gets a row of its own.
    bool analysing;
    bool final; // the analysis ended: its last lines ("final, depth 18")
    int line_count;
    UiLine lines[UI_MAX_LINES];
} UiThinking;

typedef struct UiView {
    const Board *board;
    bool flipped;   // Black at the bottom
    Move last_move; // highlighted, MOVE_NONE for none
    Move hint;      // shown as an arrow/highlight, MOVE_NONE for none
    UiPlayerView players[COLOR_NB];
    const char *const *sans; // the move list in SAN, ply_count entries
    // Per ply, how many alternatives (variations) the move has; drawn
    // underlined. NULL when there are none.
    const unsigned char *variations;
    int ply_count;
    int current_ply;    // plies shown on the board (== ply_count when live)
    int start_fullmove; // move number of the first ply
    Color start_side;   // side of the first ply
    // The move tree (ui/movetree.h): moves in PGN order with variations,
    // NAGs, comment markers and the result. NULL: the list is made from
    // sans/variations above (a main line only).
    const UiTreeItem *tree;
    int tree_count;
    // The comments around the position shown: before the current move (the
    // game's opening comment at the start) and after it; NULL for none.
    // Shown wrapped under the move list, or in its place when comment_open.
    const char *comment_before, *comment_after;
    bool comment_open;
    int comment_scroll; // rows of the comment scrolled off the top
    UiThinking thinking;
    char opening[UI_NAME_MAX * 2]; // "C50 Italian Game", empty when unknown
    // The end of the game, drawn as a banner over the board: the result
    // ("1-0") and the reason ("White mates"); empty while the game goes on.
    char result[16];
    char reason[UI_NAME_MAX * 2];
    char status[UI_STATUS_MAX];    // whose move / check / result / last error
    bool status_is_error;
    // When the status does not fit its line, or status_cut says it has more
    // than it holds, status_more ("F2: more", NULL for none) ends the line.
    bool status_cut;
    const char *status_more;
    bool paused; // a game of yours waits while the board cannot be seen
    // The evaluation after each ply of the game (centipawns, White's view,
    // mates as +-10000), drawn as a sparkline when graph_count > 1; the
    // plies with the biggest swings are marked. NULL for none.
    const int *graph;
    int graph_count;
    // Play by pointing (squares as bitboards, 0 for none): the selected
    // piece, where it may go (quiet moves and captures are marked apart), the
    // keyboard cursor, and a move queued while the engine thinks.
    Bitboard selected, quiet_targets, capture_targets, cursor;
    Move premove;
    // The promotion chooser: a small box with Q R B N beside the square a
    // pawn promotes on, for the side to move (queen first, the default).
    bool choosing;
    Square choose_square;
    Color choose_side;
} UiView;

// The pieces each side has captured, counted against the standard set (a
// side with more of a piece than it starts with has promoted pawns), and
// the material balance in pawns: pawn 1, knight and bishop 3, rook 5, queen 9.
typedef struct UiMaterial {
    int captured[COLOR_NB][PIECE_TYPE_NB]; // [capturer][type of the taken piece]
    int balance_white;                     // White's material minus Black's
} UiMaterial;
void ui_material_count(const Board *b, UiMaterial *out);
// The value of a piece type in pawns (0 for the king).
int ui_piece_value(PieceType t);

// The square shown at screen cell (y, x) of the current layout, SQ_NONE
// when the cell is not on the board (coordinates, panel) or the screen is
// closed. Maps mouse clicks.
Square ui_view_square_at(int y, int x, bool flipped);

// The piece of the promotion chooser drawn last at screen cell (y, x):
// QUEEN, ROOK, BISHOP or KNIGHT; NO_PIECE_TYPE when the cell is not on one
// or no chooser is shown. Maps mouse clicks.
PieceType ui_view_chooser_at(int y, int x);
// The order of the chooser's pieces, left to right.
extern const PieceType ui_chooser_pieces[4];
// The move tree item (an index into v->tree, or into the list made from
// v->sans) at screen cell (y, x) of the current layout, -1 for none. Maps
// clicks on the move list; v must be what was drawn.
int ui_view_move_at(const UiView *v, int y, int x);
// The rows the comment takes and the rows shown of it in the current layout
// (for scrolling it), 0 when there is no comment or no room.
void ui_view_comment_rows(const UiView *v, int *total, int *shown);

// Draws every pane (curses must be open). Marks windows for update; the
// caller finishes with ui_screen_update().
void ui_view_draw(const UiView *v);

// Text for the view's fixed-size fields is UTF-8 (names, "½", figurines).
// Copies src into dst (dstsz bytes) like snprintf("%s"), but when src does
// not fit the cut falls between characters, never inside one. Returns the
// bytes copied.
size_t ui_text_copy(char *dst, size_t dstsz, const char *src);
// The bytes of the longest start of s that takes at most cols terminal
// columns (whole characters, by wcwidth; a wide character takes two).
size_t ui_text_fit(const char *s, int cols);

#endif
