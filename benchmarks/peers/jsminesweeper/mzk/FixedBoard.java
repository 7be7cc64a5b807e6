package mzk;

import minesweeper.gamestate.GameStateModel;
import minesweeper.gamestate.GameStateModelViewer;
import minesweeper.settings.GameSettings;
import minesweeper.structure.Location;

/** A game on a board given cell by cell (mazekit's boards), for the published solver to play. */
public class FixedBoard extends GameStateModelViewer {
    private final int[][] board;

    public FixedBoard(GameSettings settings, boolean[][] mine) {
        super(settings, 0);
        board = new int[width][height];
        for (int x = 0; x < width; x++)
            for (int y = 0; y < height; y++) {
                if (mine[x][y]) { board[x][y] = GameStateModel.MINE; continue; }
                int n = 0;
                for (int j = 0; j < DX.length; j++) {
                    int a = x + DX[j], b = y + DY[j];
                    if (a >= 0 && a < width && b >= 0 && b < height && mine[a][b]) n++;
                }
                board[x][y] = n;
            }
    }

    @Override protected void startHandle(Location m) { }
    @Override protected void placeFlagHandle(Location m) { }
    @Override protected int queryHandle(int x, int y) { return board[x][y]; }

    @Override protected boolean clearSquareHitMine(Location m) {
        if (board[m.x][m.y] == 0) explode(m);
        return board[m.x][m.y] == GameStateModel.MINE;
    }

    @Override protected boolean clearSurroundHandle(Location m) {
        for (int j = 0; j < DX.length; j++) {
            int a = m.x + DX[j], b = m.y + DY[j];
            if (a >= 0 && a < width && b >= 0 && b < height) clearSquare(new Location(a, b));
        }
        return true;
    }

    @Override public int privilegedQuery(Location m, boolean showMines) {
        int r = query(m);
        if (showMines && r == GameStateModel.HIDDEN && board[m.x][m.y] == GameStateModel.MINE) return GameStateModel.MINE;
        return r;
    }

    @Override public boolean supports3BV() { return true; }
}
