import { QUESTION_TYPE_MULTIPLE, QUESTION_TYPE_SINGLE, type Label, type PublicQuestionnaire, type QuestionnaireAnswerBody } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Form, Input, Radio, Result, Select, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PublicPageFrame } from '../../components/public-page-frame';
import { questionnaireApi } from '../../lib/api/questionnaire';
import { localTitle, useLocale } from '../../lib/i18n';
import { RequestError } from '../../lib/request';

const TEXT = {
  title: { zh: '问卷调查', en: 'Questionnaire' },
  school: { zh: '学校', en: 'School' },
  chooseSchool: { zh: '请选择孩子所在学校', en: "Choose your child's school" },
  submit: { zh: '提交', en: 'Submit' },
  thanks: { zh: '提交成功，感谢您的参与！', en: 'Thank you for your answers!' },
  alreadyAnswered: { zh: '您已提交过这份问卷', en: 'You have already answered this questionnaire' },
  unavailable: { zh: '问卷链接无效，或问卷不在发布时间内', en: 'This link is not valid, or the questionnaire is not open now' },
  required: { zh: '此题必答', en: 'Please answer this question' },
  window: { zh: '发布时间：{from} 至 {until}', en: 'Open {from} to {until}' },
} satisfies Record<string, Label>;

/** A random key kept per questionnaire in this browser: a reload or a second click is the same respondent. */
function respondentKeyOf(questionnaireId: number): string {
  const storageKey = `survey.respondent.${questionnaireId}`;
  const stored = window.localStorage.getItem(storageKey);
  if (stored) return stored;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const key = `web-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
  window.localStorage.setItem(storageKey, key);
  return key;
}

type FormValues = { schoolId?: number } & Record<string, number | number[] | string | undefined>;

/** The answers a form holds, as the server takes them: options by position, texts trimmed, unanswered left out. */
function answersOf(form: PublicQuestionnaire, values: FormValues): QuestionnaireAnswerBody['answers'] {
  return form.questions.flatMap((question): QuestionnaireAnswerBody['answers'] => {
    const value = values[`q${question.questionNo}`];
    if (question.type === QUESTION_TYPE_SINGLE) return typeof value === 'number' ? [{ questionNo: question.questionNo, optionNos: [value] }] : [];
    if (question.type === QUESTION_TYPE_MULTIPLE) return Array.isArray(value) && value.length > 0 ? [{ questionNo: question.questionNo, optionNos: value }] : [];
    return typeof value === 'string' && value.trim() ? [{ questionNo: question.questionNo, text: value.trim() }] : [];
  });
}

/** /survey?token=…: a questionnaire answered without a login, through the link the console hands out. */
export default function SurveyPage() {
  const locale = useLocale();
  const text = (label: Label) => localTitle(label, locale);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [form] = Form.useForm<FormValues>();
  const [outcome, setOutcome] = useState<'thanks' | 'already' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const loaded = useQuery({ queryKey: ['survey', token], queryFn: () => questionnaireApi.publicForm(token), enabled: token !== '', retry: false });
  const questionnaire = loaded.data;

  const submit = async (values: FormValues) => {
    if (!questionnaire) return;
    setFailure(null);
    try {
      await questionnaireApi.answer({ token, respondentKey: respondentKeyOf(questionnaire.id), schoolId: values.schoolId, answers: answersOf(questionnaire, values) });
      setOutcome('thanks');
    } catch (error) {
      if (!(error instanceof RequestError)) throw error;
      if (error.status === 409 && error.errors.length === 0 && /already|已提交/.test(error.message)) return setOutcome('already');
      // Errors name `questions.<no>` or `schoolId`: put each beside its question.
      const fields = error.errors.map((problem) => ({ name: problem.path.startsWith('questions.') ? `q${problem.path.slice('questions.'.length)}` : problem.path, errors: [problem.message] }));
      if (fields.length > 0) form.setFields(fields);
      else setFailure(error.message);
    }
  };

  let body;
  if (token === '' || loaded.isError) body = <Result status="warning" title={text(TEXT.unavailable)} />;
  else if (!questionnaire) body = <Spin />;
  else if (outcome) body = <Result status={outcome === 'thanks' ? 'success' : 'info'} title={text(outcome === 'thanks' ? TEXT.thanks : TEXT.alreadyAnswered)} />;
  else
    body = (
      <Form form={form} layout="vertical" onFinish={submit} requiredMark data-testid="survey-form">
        {questionnaire.description && <Typography.Paragraph type="secondary">{questionnaire.description}</Typography.Paragraph>}
        <Typography.Paragraph type="secondary">{text(TEXT.window).replace('{from}', questionnaire.startDate).replace('{until}', questionnaire.endDate)}</Typography.Paragraph>
        {questionnaire.isSchoolRequired && (
          <Form.Item name="schoolId" label={text(TEXT.school)} rules={[{ required: true, message: text(TEXT.chooseSchool) }]}>
            <Select showSearch optionFilterProp="label" placeholder={text(TEXT.chooseSchool)} options={questionnaire.schools.map((school) => ({ value: school.id, label: school.schoolName }))} />
          </Form.Item>
        )}
        {questionnaire.questions.map((question) => {
          const options = question.options.map((option, index) => ({ value: index + 1, label: option }));
          const rules = question.isRequired ? [{ required: true, message: text(TEXT.required) }] : [];
          return (
            <Form.Item key={question.questionNo} name={`q${question.questionNo}`} label={`${question.questionNo}. ${question.title}`} rules={rules}>
              {question.type === QUESTION_TYPE_SINGLE ? (
                <Radio.Group>
                  <Space direction="vertical">{options.map((option) => <Radio key={option.value} value={option.value}>{option.label}</Radio>)}</Space>
                </Radio.Group>
              ) : question.type === QUESTION_TYPE_MULTIPLE ? (
                <Checkbox.Group>
                  <Space direction="vertical">{options.map((option) => <Checkbox key={option.value} value={option.value}>{option.label}</Checkbox>)}</Space>
                </Checkbox.Group>
              ) : (
                <Input.TextArea rows={3} maxLength={1000} showCount />
              )}
            </Form.Item>
          );
        })}
        {failure && <Alert type="error" showIcon message={failure} style={{ marginBottom: 16 }} />}
        <Button type="primary" htmlType="submit" size="large" block>
          {text(TEXT.submit)}
        </Button>
      </Form>
    );

  return (
    <PublicPageFrame title={questionnaire?.title ?? text(TEXT.title)} width={560}>
      {body}
    </PublicPageFrame>
  );
}
