package mzk;

import java.io.BufferedReader;
import java.io.InputStreamReader;

import minesweeper.gamestate.GameStateModel;
import minesweeper.solver.Solver;
import minesweeper.structure.Action;

/**
 * Reads boards from stdin, one a line: "width height mines x y cells" (cells: 0/1, row by row),
 * opens (x, y) and lets the solver play the rest; prints 1 (won) or 0 a line.
 */
public class Play {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            FixedBoard gs = FixedBoard.parse(line);
            Solver solver = gs.solver();
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
