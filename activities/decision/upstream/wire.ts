/**
 * Wire types of the typed-decision model (wire notes "Decision
 * helper"). The model answers bounded questions only: choice, noul (yes/no probability) or
 * score. A missing or ill-typed answer invalidates the whole response.
 */
import { z } from 'zod';

const finite = z.number().finite();
const probability = finite.min(0).max(1);

/** Relevance scores run 0-4; candidates scoring below 1 are dropped by the caller. */
export const MIN_SCORE = 0;
export const MAX_SCORE = 4;

export const ScoreQuestionSchema = z.object({
  type: z.literal('score'),
  instructions: z.string().min(1),
  /** Meaning of each score, keyed "0".."4". */
  legend: z.record(z.string(), z.string()).optional(),
});

export const ChoiceQuestionSchema = z.object({
  type: z.literal('choice'),
  instructions: z.string().min(1),
  options: z.array(z.string()).min(2),
});

export const NoulQuestionSchema = z.object({
  type: z.literal('noul'),
  instructions: z.string().min(1),
});

export const QuestionSchema = z.discriminatedUnion('type', [
  ScoreQuestionSchema,
  ChoiceQuestionSchema,
  NoulQuestionSchema,
]);
export type Question = z.infer<typeof QuestionSchema>;

/**
 * `POST {decision_url}`. `state` holds every piece of data, each part labelled with how far it
 * can be trusted; `questions` hold only our own fixed instructions.
 */
export const DecisionRequestSchema = z.object({
  model: z.string().min(1),
  state: z.record(z.string(), z.unknown()),
  questions: z.record(z.string(), QuestionSchema),
});
export type DecisionRequest = z.infer<typeof DecisionRequestSchema>;

export const ScoreAnswerSchema = z.object({
  score: z.number().int().min(MIN_SCORE).max(MAX_SCORE),
  legend: z.string().optional(),
  probabilities: z.union([z.array(probability), z.record(z.string(), probability)]).optional(),
  confidence: probability.optional(),
});
export type ScoreAnswer = z.infer<typeof ScoreAnswerSchema>;

export const ChoiceAnswerSchema = z.object({
  choice: z.string(),
  probabilities: z.record(z.string(), probability).optional(),
  confidence: probability.optional(),
});
export type ChoiceAnswer = z.infer<typeof ChoiceAnswerSchema>;

export const NoulAnswerSchema = z.object({ noul: probability });
export type NoulAnswer = z.infer<typeof NoulAnswerSchema>;

/** The envelope; each answer is validated against its question's type by the client. */
export const DecisionResponseSchema = z.object({
  answers: z.record(z.string(), z.unknown()),
});
export type DecisionResponse = z.infer<typeof DecisionResponseSchema>;
