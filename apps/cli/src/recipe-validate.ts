// The Recipe contract's own validation (class-validator, the same as POST /api/mappings/import): loaded
// only for a recipe the quick check (recipe-check.ts) cannot pass, so its errors are worded as the api's.
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { Recipe } from '@csv-mapper/contracts';
import { RecipeError } from './recipe-check';

export function validateRecipe(json: object): Recipe {
  const recipe = plainToInstance(Recipe, json);
  const errors = validateSync(recipe, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) {
    throw new RecipeError(`The recipe is not valid: ${messages(errors).slice(0, 5).join('; ')}.`);
  }
  return recipe;
}

function messages(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const at = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => (m.startsWith(e.property) ? m : `${at}: ${m}`));
    return [...own, ...messages(e.children ?? [], at)];
  });
}
