/** Roomwalk's terms and conditions: 17 numbered sections. */
import { createElement } from 'react';
import { PRODUCT_NAME, SUPPORT_EMAIL } from '@roomwalk/shared';

const P = PRODUCT_NAME;

const TERMS_SECTIONS: ReadonlyArray<{ title: string; paragraphs: readonly string[] }> = [
  {
    title: 'Terms of use',
    paragraphs: [
      `These terms govern your use of the ${P} website, console, tour player and related services (the "Service"). By creating an account, uploading a video or sharing a tour you accept these terms. If you use the Service for a company, you confirm that you may bind that company to them.`,
      `We may change these terms. We will tell account holders about material changes by email or in the console at least 14 days before they apply; continuing to use the Service after that date means you accept the changed terms.`,
    ],
  },
  {
    title: 'Website content',
    paragraphs: [
      `The content we publish on the Service (text, graphics, the player and its interface) is provided for general information and for operating your tours. We work to keep it accurate and available but do not promise that it is complete, current or free of errors, and we may change or withdraw any part of it.`,
      `You are responsible for the videos, photos, descriptions, listing links and other content you upload ("Your Content"), including that property details shown in a tour are truthful and that you have the right to film and publish the property.`,
    ],
  },
  {
    title: 'Third-party links',
    paragraphs: [
      `Tours and pages may link to listing portals, payment providers, identity providers and other sites that we do not control. We are not responsible for their content, availability or privacy practices, and a link is not an endorsement. Your use of those sites is governed by their own terms.`,
    ],
  },
  {
    title: 'Usage restrictions',
    paragraphs: [
      `You may not: upload content that is unlawful, misleading, defamatory, discriminatory or that infringes another person's rights; film people without the consent the law requires; attempt to break, probe or overload the Service or bypass its limits and plan quotas; scrape or copy other users' tours; resell access to the Service without our written consent; or use the Service to send unsolicited messages.`,
      `We may suspend or remove content or accounts that break these restrictions.`,
    ],
  },
  {
    title: 'Security',
    paragraphs: [
      `Keep your password confidential and use a strong one; you are responsible for activity under your account. Tell us at once at ${SUPPORT_EMAIL} if you suspect unauthorised use. We protect the Service with industry-standard measures, including encrypted connections, hashed passwords and access controls, but no system is completely secure.`,
    ],
  },
  {
    title: 'Intellectual property',
    paragraphs: [
      `${P} and its licensors own the Service, its software, design and trademarks. We grant you a limited, non-exclusive, non-transferable licence to use the Service during your subscription under these terms.`,
      `You keep ownership of Your Content. You grant ${P} a worldwide, royalty-free licence to host, process, transcode, display and distribute Your Content as needed to run the Service, including showing your tours to the visitors you share them with and embedding them where you place them.`,
    ],
  },
  {
    title: 'Risk and liability',
    paragraphs: [
      `The Service is provided "as is". To the extent the law allows, ${P} is not liable for indirect or consequential loss, lost profits, lost data or lost business, and our total liability for any claim is limited to the fees you paid us in the 12 months before the claim arose.`,
      `Nothing in these terms limits liability that cannot be limited by law, including liability for fraud or for death or personal injury caused by negligence, or your rights under applicable consumer protection law.`,
    ],
  },
  {
    title: 'Privacy and cookies',
    paragraphs: [
      `Our Privacy Policy explains what personal information we collect, why and how we protect it. We use strictly necessary storage to keep you signed in and remember your choices. Analytics cookies are set only after you accept them in the cookie banner, and you can decline them at any time.`,
    ],
  },
  {
    title: 'Confidentiality',
    paragraphs: [
      `Each party will keep confidential the non-public information it receives from the other, including unpublished tours, business reports, pricing and technical details, and will use it only to perform these terms. This does not apply to information that is public through no fault of the receiving party or that must be disclosed by law.`,
    ],
  },
  {
    title: 'Breach',
    paragraphs: [
      `If you breach these terms and do not remedy a remediable breach within 14 days of our written notice, we may suspend or close your account. We may act immediately for serious breaches, including unlawful content, fraud or threats to the security of the Service. Closing an account does not affect rights that arose before it.`,
    ],
  },
  {
    title: 'E-commerce disclosures',
    paragraphs: [
      `Plans are sold as monthly subscriptions at the prices shown on the Monthly Subscription page, in the currency shown, including VAT where it applies. Payments are processed by our card payment provider; we do not store card numbers. A subscription renews each month until cancelled and can be cancelled at any time from the billing portal, with effect at the end of the paid month. Contact ${SUPPORT_EMAIL} for billing questions or disputes.`,
    ],
  },
  {
    title: 'Compliance',
    paragraphs: [
      `You will comply with the laws that apply to your use of the Service, including property advertising, consumer protection, data protection and export laws. We comply with the laws that apply to us as the provider of the Service, including the Protection of Personal Information Act of South Africa and, where it applies, the GDPR.`,
    ],
  },
  {
    title: 'Notices',
    paragraphs: [
      `We send notices to the email address of your account; you send notices to ${SUPPORT_EMAIL}. A notice sent by email is deemed given 48 hours after it is sent, unless the sender learns that it was not delivered. A notice sent by registered mail is deemed given 7 days after posting.`,
    ],
  },
  {
    title: 'General',
    paragraphs: [
      `These terms are the whole agreement between you and ${P} about the Service. If a provision is found unenforceable, the rest stays in force. A failure to enforce a right is not a waiver. You may not transfer your rights under these terms without our consent; we may transfer ours to a successor of our business. These terms are governed by the laws of the Republic of South Africa, without prejudice to mandatory consumer rights where you live.`,
    ],
  },
  {
    title: 'GDPR',
    paragraphs: [
      `Where the GDPR applies, ${P} processes personal data in Your Content and about your visitors as your processor, on your documented instructions given through your use of the Service, and as a controller for account and billing data. We process personal data only for the purposes described in the Privacy Policy, keep it secure, bind our sub-processors to equivalent obligations, help you answer data-subject requests, and delete or return the data when your account closes. We will notify you of a personal data breach affecting your data without undue delay and in any case within 72 hours of becoming aware of it.`,
    ],
  },
  {
    title: 'Cloud computing',
    paragraphs: [
      `The Service runs on cloud infrastructure operated by reputable providers, and your data may be stored and processed in data centres outside your country with appropriate safeguards. We keep backups and work to restore the Service quickly after an incident, but you should keep your own copy of your original videos. Planned maintenance is announced in advance where practical.`,
    ],
  },
  {
    title: 'AI training and derivative works',
    paragraphs: [
      `Some features use machine-learning models, for example room tagging, markers, reels and professional photos. The outputs generated from Your Content belong to you, and you are responsible for reviewing them before publishing. We do not use Your Content to train general-purpose models without your explicit consent. We may use aggregated, de-identified usage data to improve the accuracy of our own features; such data cannot identify you, your visitors or a property.`,
    ],
  },
];

export function TermsDocument({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  return (
    <article className="terms-document" aria-label={`${P} Terms & Conditions`}>
      <p>Last updated: 1 November 2025. These terms apply between you and {P}.</p>
      <ol className="terms-sections">
        {TERMS_SECTIONS.map((s, i) => (
          <li key={s.title} id={`terms-${i + 1}`}>
            {createElement(`h${headingLevel}`, null, s.title)}
            {s.paragraphs.map((p) => (
              <p key={p.slice(0, 40)}>{p}</p>
            ))}
          </li>
        ))}
      </ol>
    </article>
  );
}
