// Issue 14 §3, "Faults, on purpose" (the shop, its tools and this suite: tests/helpers/faults.ts):
// a payment whose fulfilment is killed at the fault point fulfil-commit (just before its transaction commits), and the
// server started again: the payment is fulfilled once, its mails sent once.
import { describeFulfilmentKilledAt } from '../helpers/faults.ts';

describeFulfilmentKilledAt('fulfil-commit', 'O3', 'commit@example.test');
