package mzk;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.math.BigDecimal;

import minesweeper.gamestate.GameStateModel;
import minesweeper.settings.GameSettings;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

/**
 * Reads boards from stdin, one a line: "width height mines x y cells" (cells: 0/1, row by row),
 * opens (x, y) and lets the solver play the rest; prints 1 (won) or 0 a line.
 */
public class Play {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        SolverSettings settings = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
        settings.setSingleThread(true);
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.trim().split(" ");
            int w = Integer.parseInt(f[0]), h = Integer.parseInt(f[1]), m = Integer.parseInt(f[2]);
            int x0 = Integer.parseInt(f[3]), y0 = Integer.parseInt(f[4]);
            boolean[][] mine = new boolean[w][h];
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) mine[x][y] = f[5].charAt(y * w + x) == '1';
            FixedBoard gs = new FixedBoard(GameSettings.create(w, h, m), mine);
            gs.doAction(new Action(new Location(x0, y0), Action.CLEAR, null, "", BigDecimal.ONE));
            Solver solver = new Solver(gs, settings, false);
            solver.setPlayStyle(PlayStyle.NO_FLAG);
            int loops = 0;
            play:
            while (gs.getGameState() == GameStateModel.STARTED && loops++ < 5000) {
                solver.start();
                Action[] moves = solver.getResult();
                if (moves.length == 0) break;
                for (Action a : moves) {
                    gs.doAction(a);
                    int st = gs.getGameState();
                    if (st == GameStateModel.LOST || st == GameStateModel.WON) break play;
                }
            }
            System.out.println(gs.getGameState() == GameStateModel.WON ? 1 : 0);
            System.out.flush();
        }
    }
}
