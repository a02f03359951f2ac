/** The payment pages (src/features/payments) and the Stripe stand-in's checkout page, named once, for the end-to-end tests. */
import type { Page } from 'playwright-core';
import type { Plan } from '../../common/messages/payments';
import { AppPage } from './app-page';

/** What the subscription card shows, as text (the renewal date as its machine-readable ISO time). */
export interface SubscriptionShown {
  plan: string;
  status: string;
  renewsAt: string | null;
}

export class PaymentsPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** A plan card's button ("Pay yearly"). */
  payButton(plan: Plan) {
    return this.page.getByRole('button', { name: `Pay ${plan}` });
  }

  subscriptionCard() {
    return this.page.getByRole('region', { name: 'Your subscription' });
  }

  /** What the subscription card shows now. */
  async subscriptionShown(): Promise<SubscriptionShown> {
    const card = this.subscriptionCard();
    return {
      plan: (await card.locator('.subscription-plan').innerText()).trim(),
      status: (await card.locator('.subscription-status').innerText()).trim(),
      renewsAt: await card.locator('.subscription-renewal time').getAttribute('datetime'),
    };
  }

  /** The banner the screen shows (role status or plain), by its text. */
  says(text: string) {
    return this.page.getByText(text, { exact: true });
  }

  /** On the stand-in's hosted checkout page: pays. */
  async payOnCheckoutPage(): Promise<void> {
    await this.page.getByRole('button', { name: 'Pay', exact: true }).click();
  }
}
