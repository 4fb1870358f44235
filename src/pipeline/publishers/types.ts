export interface PublishInput {
  report_id: string;
  title: string;
  tldr: string;
  markdown: string;
  report_date: string;
}

export interface PublishOutcome {
  url: string | null;
  external_id?: string | null;
}
