// chart.js for the analytics screen only (issue 12): the island imports this module dynamically,
// so it becomes a chunk of its own that no other page references, and only the parts the three
// charts draw are registered (the rest of chart.js is shaken out of the chunk).
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';

Chart.register(
  LineController,
  BarController,
  LineElement,
  PointElement,
  BarElement,
  CategoryScale,
  LinearScale,
  Filler,
  Tooltip,
  Legend,
);

export { Chart };
