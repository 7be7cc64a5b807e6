package mzk;

import java.math.BigDecimal;

import minesweeper.gamestate.GameStateModel;
import minesweeper.gamestate.GameStateModelViewer;
import minesweeper.settings.GameSettings;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.structure.Action;
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

    /**
     * The game of a line "width height mines x y cells [open]" (cells: 0/1 mines row by row; open,
     * if given: 0/1 cells to open too), its first click at (x, y) made.
     */
    public static FixedBoard parse(String line) {
        String[] f = line.trim().split(" ");
        int w = Integer.parseInt(f[0]), h = Integer.parseInt(f[1]), m = Integer.parseInt(f[2]);
        boolean[][] mine = new boolean[w][h];
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) mine[x][y] = f[5].charAt(y * w + x) == '1';
        FixedBoard gs = new FixedBoard(GameSettings.create(w, h, m), mine);
        gs.open(Integer.parseInt(f[3]), Integer.parseInt(f[4]));
        if (f.length > 6)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    if (f[6].charAt(y * w + x) == '1' && gs.query(new Location(x, y)) == GameStateModel.HIDDEN) gs.open(x, y);
        return gs;
    }

    /** The solver as the author's bulk runs set it: small analysis, one thread, no flags. */
    public Solver solver() {
        SolverSettings settings = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
        settings.setSingleThread(true);
        Solver solver = new Solver(this, settings, false);
        solver.setPlayStyle(PlayStyle.NO_FLAG);
        return solver;
    }

    private void open(int x, int y) {
        doAction(new Action(new Location(x, y), Action.CLEAR, null, "", BigDecimal.ONE));
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
