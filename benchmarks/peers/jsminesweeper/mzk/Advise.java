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
 * Reads positions, one a line: "width height mines x y cells open" (cells: 0/1 mines, open: 0/1
 * cells opened, both row by row), makes the first click at (x, y) and opens the other open
 * cells, and prints the solver's first opening move: "@@ x y certain safety method" (method
 * without spaces), or "@@ none". Lines that do not start with "@@ " are the solver's own output.
 */
public class Advise {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        SolverSettings settings = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
        settings.setSingleThread(true);
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.trim().split(" ");
            int w = Integer.parseInt(f[0]), h = Integer.parseInt(f[1]), m = Integer.parseInt(f[2]);
            boolean[][] mine = new boolean[w][h];
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) mine[x][y] = f[5].charAt(y * w + x) == '1';
            FixedBoard gs = new FixedBoard(GameSettings.create(w, h, m), mine);
            open(gs, Integer.parseInt(f[3]), Integer.parseInt(f[4]));
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    if (f[6].charAt(y * w + x) == '1' && gs.query(new Location(x, y)) == GameStateModel.HIDDEN) open(gs, x, y);
            Solver solver = new Solver(gs, settings, false);
            solver.setPlayStyle(PlayStyle.NO_FLAG);
            solver.start();
            String out = "@@ none";
            for (Action a : solver.getResult()) {
                if (a.getAction() != Action.CLEAR) continue;
                String method = a.toString().replace(' ', '_');
                out = "@@ " + a.x + " " + a.y + " " + (a.isCertainty() ? 1 : 0) + " " + a.getBigProb().doubleValue() + " " + method;
                break;
            }
            System.out.println(out);
            System.out.flush();
        }
    }

    private static void open(FixedBoard gs, int x, int y) {
        gs.doAction(new Action(new Location(x, y), Action.CLEAR, null, "", BigDecimal.ONE));
    }
}
